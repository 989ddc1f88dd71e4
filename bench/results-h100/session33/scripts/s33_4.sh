# session 33 call 4: the GPU suite (not nvme), polybench and graphs at x = 0 on the served build
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T tests
timeout 320 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf --maxfail=4 -k "not nvme" > $OUT/gpu_rest.txt 2>&1; echo rc=$?; tail -12 $OUT/gpu_rest.txt
T poly
timeout 80 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 2 --systems dream,in_memory,uvm --out $OUT/poly > /tmp/p.log 2>&1; echo rc=$?; cat $OUT/poly/polybench.md; tail -3 /tmp/p.log
T graph
timeout 100 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 2 --oversubscription 0 --systems dream,in_memory,uvm --out $OUT/graph > /tmp/g.log 2>&1; echo rc=$?; cat $OUT/graph/graph.md; tail -3 /tmp/g.log
T end
