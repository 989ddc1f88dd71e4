# session 31: final code: CC hook per launch, and the graph table (bfs, cc; x = 0; 3 runs)
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T hook; VARIANT=final timeout 80 python3 -P .b31/hook_s30.py dream 2 2>&1 | tail -1
T graph; timeout 150 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 3 --oversubscription 0 --systems dream,in_memory,uvm --out $OUT/graph > /tmp/g.log 2>&1; echo rc=$?; cat $OUT/graph/graph.md
T end
