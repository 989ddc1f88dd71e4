# Session 47, call 6: the final tree: `pytest -m gpu -k nvme`, then BFS and CC
# cold at x = 0 against in-memory and UVM first touch in one run (the issue's
# table), each result checked exactly against SciPy.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
timeout 280 python3 -P -m pytest -m gpu -k nvme --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_nvme.txt 2>&1; echo rc=$?
tail -3 $OUT/gpu_nvme.txt
T "gpu nvme"
(cd /tmp && timeout 150 python3 -P -m dream bench graph --graph kron --scale 22 --kernels bfs,cc --layouts csr --backend direct \
   --oversubscription 0 --runs 3 --systems in_memory,uvm,dream --out $OUT/graph > /tmp/g.log 2>&1; echo rc=$?; tail -3 /tmp/g.log; grep -E "^\| " $OUT/graph/*.md | cut -c1-170)
T "graph table"
