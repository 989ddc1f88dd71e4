set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
cp $INC/fault.cuh /tmp/fault_main.cuh; cp /tmp/fault_main.cuh .b30/fault_final.cuh
for v in vu final vs nocheck_all; do T $v; cp .b30/fault_$v.cuh $INC/fault.cuh; VARIANT=$v timeout 60 python3 -P .b30/hook.py dream 2 2>&1 | tail -1; timeout 80 python3 -P .b30/gdiag.py cc,bfs 1 resident,cold 2>&1 | grep "ms:" ; done
cp /tmp/fault_main.cuh $INC/fault.cuh
T end
