# Session 48, call 2 (prepared in session 47): the whole `pytest -m gpu -k "not
# nvme"` on the tree to land (about 250 s on an H200), then BFS and CC exact.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
timeout 450 python3 -P -m pytest -m gpu -k "not nvme" --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_not_nvme.txt 2>&1; echo rc=$?
tail -4 $OUT/gpu_not_nvme.txt
T "gpu not nvme"
(cd /tmp && timeout 100 python3 -P -m dream bench graph --graph kron --scale 22 --kernels bfs,cc --layouts csr --backend direct \
   --oversubscription 0 --runs 1 --systems dream --out /tmp/g > /tmp/g.log 2>&1; echo rc=$?; grep -E "^\| " /tmp/g/*.md | cut -c1-150 | head -8)
T "graph check"
