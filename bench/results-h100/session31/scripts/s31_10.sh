# session 31: resident build's failure record by plain stores: targeted tests, CC hook A/B against main's header, graph table
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
T tests
timeout 150 python3 -P -m pytest -q -p no:cacheprovider -rf --timeout 60 tests/test_abi.py tests/test_core_gpu.py -k "abi or out_of_bounds or type_mismatch or span" > $OUT/tests.log 2>&1; echo rc=$?; tail -3 $OUT/tests.log
T hook
for v in new main new main; do cp .b31/fault_$v.cuh $INC/fault.cuh; VARIANT=$v timeout 120 python3 -P .b30/hook.py dream 3 2>&1 | tail -1; done
cp .b31/fault_new.cuh $INC/fault.cuh
T graph
timeout 280 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 3 --oversubscription 0 --systems dream,in_memory,uvm --out $OUT/graph > /tmp/g.log 2>&1; echo rc=$?; cat $OUT/graph/graph.md
T end
