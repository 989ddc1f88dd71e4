# Session 50, call 11 on main (8cd5974): the graph rows of the table
# again, after the 32-bit index reads (call 4's command).
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
(cd /tmp && timeout 200 python3 -P -m dream bench graph --graph kron --scale 22 --kernels bfs,cc --layouts csr --backend direct \
  --oversubscription 0 --runs 3 --systems in_memory,uvm,dream --out $OUT/g > $OUT/g.log 2>&1; echo rc=$?; cat $OUT/g/graph.md)
T graph
