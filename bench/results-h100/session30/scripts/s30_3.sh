# session 30, call 3: bounds check inline (dream_check) against the call (dream_access_failed)
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
G() { timeout 200 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 1 --oversubscription 0 --systems $1 --out $OUT/$2 > /tmp/g.log 2>&1; echo rc=$?; grep "csr |" $OUT/$2/graph.md; }
T hook-inline; cp .b30/fault_inline.cuh $INC/fault.cuh; VARIANT=inline python3 -P .b30/hook.py dream 3
T graph-inline; G dream,in_memory,uvm inline
T graph-call; cp .b30/fault_main.cuh $INC/fault.cuh; G dream call
T graph-inline-res; cp .b30/fault_inline_res.cuh $INC/fault.cuh; G dream inline_res
T graph-inline2; cp .b30/fault_inline.cuh $INC/fault.cuh; G dream inline2
T end
