# session 31 call 2: the copy kernel's phases in a softrnic serial fault
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
cp $INC/copier.cuh /tmp/copier_main.cuh
for v in copier_main copier_stamp copier_stamp_v1; do cp $( [ $v = copier_main ] && echo /tmp/copier_main.cuh || echo .b31/$v.cuh ) $INC/copier.cuh; echo "-- $v"; for o in '{}' '{"queue_memory":"split"}'; do timeout 60 python3 -P .b31/copier_probe.py "$o" 2>&1 | tail -3; done; done
cp /tmp/copier_main.cuh $INC/copier.cuh
T end
