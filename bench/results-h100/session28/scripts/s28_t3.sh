# session 28: issue 10's tables on the final code (PolyBench N = 16384 at x = 0 and 8 with UVM and in-memory; BFS and CC on Kronecker 22), the new tests
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
T tests; timeout 150 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf -k "per_element or scattered_walk" tests/test_core_gpu.py 2>&1 | tail -3
T polybench; timeout 200 python3 -P -m dream bench polybench --kernels atax,mvt,bicg,vadd --n 16384 --backend direct --runs 1 --oversubscription 0,8 --systems dream,in_memory,uvm --out $OUT/issue10_tables > /tmp/p.log 2>&1; echo rc=$?; cat $OUT/issue10_tables/polybench.md
T graph; timeout 200 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 1 --oversubscription 0 --systems dream,in_memory,uvm --out $OUT/issue10_tables > /tmp/g.log 2>&1; echo rc=$?; cat $OUT/issue10_tables/graph.md
T vdiag; timeout 100 python3 -P .b28/vdiag.py $((1<<28)) "vadd 256,vgs 1056x256,rd1 256,wpp 256" 1 2>&1 | tee $OUT/vdiag.txt
T end
