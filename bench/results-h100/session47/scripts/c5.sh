# Session 47, call 5: the final tree of wip/whole (variant C of call 4): the
# whole `pytest -m gpu -k "not nvme"`, then BFS and CC at x = 0 checked exactly
# against SciPy.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
timeout 420 python3 -P -m pytest -m gpu -k "not nvme" --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_not_nvme.txt 2>&1; echo rc=$?
tail -4 $OUT/gpu_not_nvme.txt
T "gpu not nvme"
(cd /tmp && timeout 100 python3 -P -m dream bench graph --graph kron --scale 22 --kernels bfs,cc --layouts csr --backend direct \
   --oversubscription 0 --runs 1 --systems dream --out /tmp/g > /tmp/g.log 2>&1; echo rc=$?; grep -E "^\| " /tmp/g/*.md | cut -c1-150 | head -8)
T "graph check"
