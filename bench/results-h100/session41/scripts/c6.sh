# session 41 call 6: issue 10's table on the landed tree (b6f2656): PolyBench and vector add at x = 0 and 8, BFS and CC
# at x = 0, each against in-memory and UVM first touch in the same run
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
(cd /tmp && timeout 150 python3 -P -m dream bench polybench --backend direct --oversubscription 0,8 --runs 2 --systems dream,in_memory,uvm --out $OUT/poly > /tmp/p.log 2>&1; echo rc=$?; cat $OUT/poly/polybench.md; tail -2 /tmp/p.log)
T poly
(cd /tmp && timeout 110 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 2 --oversubscription 0 --systems dream,in_memory,uvm --out $OUT/graph > /tmp/g.log 2>&1; echo rc=$?; cat $OUT/graph/graph.md; tail -2 /tmp/g.log)
T graph
