# session 33 call 1: the served build: its tests, graphs, polybench, serial fault
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T served-tests
timeout 150 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf -x tests/test_core_gpu.py -k "served or no_eviction or streaming or at_home" > $OUT/t1.txt 2>&1; echo rc=$?; tail -15 $OUT/t1.txt
T serial
timeout 40 python3 -P .b33/serial.py direct
T graph
timeout 150 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 3 --oversubscription 0 --systems dream,in_memory,uvm --out $OUT/graph > /tmp/g.log 2>&1; echo rc=$?; cat $OUT/graph/graph.md; tail -5 /tmp/g.log
T poly
timeout 150 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 2 --systems dream,in_memory,uvm --out $OUT/poly > /tmp/p.log 2>&1; echo rc=$?; cat $OUT/poly/*.md; tail -5 /tmp/p.log
T end
