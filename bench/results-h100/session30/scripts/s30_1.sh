# session 30, call 1: native atomic min/max (ptr.cuh) against main's CAS loop; graph table bfs,cc,sssp x=0
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
T tests; timeout 120 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf -k "atomic and not nvme" tests/ 2>&1 | tail -3
T graph-native; timeout 240 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc,sssp --layouts csr --backend direct --runs 1 --oversubscription 0 --systems dream,in_memory,uvm --out $OUT/native > /tmp/g.log 2>&1; echo rc=$?; cat $OUT/native/graph.md
cp .b30/ptr_main.cuh $INC/ptr.cuh
T graph-main; timeout 200 python3 -P -m dream bench graph --scale 22 --kernels cc,sssp --layouts csr --backend direct --runs 1 --oversubscription 0 --systems dream --out $OUT/main > /tmp/g2.log 2>&1; echo rc=$?; cat $OUT/main/graph.md
cp .b30/ptr_native.cuh $INC/ptr.cuh
T graph-native2; timeout 200 python3 -P -m dream bench graph --scale 22 --kernels cc,sssp --layouts csr --backend direct --runs 1 --oversubscription 0 --systems dream --out $OUT/native2 > /tmp/g3.log 2>&1; echo rc=$?; cat $OUT/native2/graph.md
T end
