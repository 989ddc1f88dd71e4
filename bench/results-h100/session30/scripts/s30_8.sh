# session 30, call 8: GPU suite without nvme on the native-atomics commit; the new min/max test on nvme; issue 10's graph table
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
T suite
timeout 330 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf -k "not nvme" > $OUT/gpu_rest.log 2>&1; echo rc=$?; tail -3 $OUT/gpu_rest.log
T minmax-nvme
timeout 100 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf -k "nvme and (min_max or atomics)" tests/test_core_gpu.py > $OUT/gpu_nvme_minmax.log 2>&1; echo rc=$?; tail -2 $OUT/gpu_nvme_minmax.log
T graph
timeout 150 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc,sssp --layouts csr --backend direct --runs 3 --oversubscription 0 --systems dream,in_memory,uvm --out $OUT/issue10_graph > /tmp/g.log 2>&1; echo rc=$?; grep "csr |" $OUT/issue10_graph/graph.md
T end
