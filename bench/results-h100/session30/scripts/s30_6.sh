set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
for v in vg main; do T $v; cp .b30/fault_$v.cuh $INC/fault.cuh; VARIANT=$v python3 -P .b30/hook.py dream 3 | tail -1; done
G() { timeout 200 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 1 --oversubscription 0 --systems $1 --out $OUT/$2 > /tmp/g.log 2>&1; echo rc=$?; grep "csr |" $OUT/$2/graph.md; }
T graph-vh; cp .b30/fault_vh.cuh $INC/fault.cuh; G dream vh
T graph-main; cp .b30/fault_main.cuh $INC/fault.cuh; G dream main
T end
