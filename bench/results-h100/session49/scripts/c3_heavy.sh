# Session 49, call 3 on main (the range hint landed): heavy.py (where cold
# BFS's fourth launch and CC's first hook lose time), then the table:
# graphs and PolyBench against in-memory and UVM first touch.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD
(cd /tmp && timeout 150 python3 -P $R/bench/results-h100/session49/scripts/heavy.py 2>&1 | grep -v Warning)
T heavy
(cd /tmp && timeout 200 python3 -P -m dream bench graph --graph kron --scale 22 --kernels bfs,cc --layouts csr --backend direct \
  --oversubscription 0 --runs 3 --systems in_memory,uvm,dream --out $OUT/g > $OUT/g.log 2>&1; echo rc=$?; cat $OUT/g/graph.md)
T graph
(cd /tmp && timeout 170 python3 -P -m dream bench polybench --backend direct --oversubscription 0,8 --runs 3 \
  --systems in_memory,uvm,dream --out $OUT/p > $OUT/p.log 2>&1; echo rc=$?; cat $OUT/p/polybench.md)
T polybench
