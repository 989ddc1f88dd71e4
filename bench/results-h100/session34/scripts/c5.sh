# session 34 call 5: the reverted code's nvme GPU half; graphs and PolyBench (x = 0, 8) against UVM, one call
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T graph
timeout 100 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 2 --oversubscription 0 --systems dream,in_memory,uvm --out $OUT/graph > /tmp/g.log 2>&1; echo rc=$?; cat $OUT/graph/graph.md; tail -3 /tmp/g.log
T poly
timeout 150 python3 -P -m dream bench polybench --backend direct --oversubscription 0,8 --runs 2 --systems dream,in_memory,uvm --out $OUT/poly > /tmp/p.log 2>&1; echo rc=$?; cat $OUT/poly/polybench.md; tail -3 /tmp/p.log
T nvme
timeout 300 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf -k nvme > $OUT/gpu_nvme.txt 2>&1; echo rc=$?; tail -8 $OUT/gpu_nvme.txt
T end
