# session 30, call 2: CC hook per launch: raw vs dream resident variants
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
T raw; python3 -P .b30/hook.py raw 3
T raw_norestrict; python3 -P .b30/hook.py raw_norestrict 3
T native; VARIANT=native python3 -P .b30/hook.py dream 3
cp .b30/ptr_main.cuh $INC/ptr.cuh
T main; VARIANT=main python3 -P .b30/hook.py dream 3
cp .b30/ptr_native.cuh $INC/ptr.cuh; cp .b30/fault_nocheck.cuh $INC/fault.cuh
T nocheck; VARIANT=native+nocheck python3 -P .b30/hook.py dream 3
cp .b30/fault_main.cuh $INC/fault.cuh
T end
