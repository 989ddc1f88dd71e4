# session 41 call 4: the new test (y's homes at the ring's first frames, a new runtime's cursor) on every
# backend and against the mutant; the O6 home and racing tests again
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/v_mut .b41/mut_src > /tmp/i2.log 2>&1 || { tail -30 /tmp/i2.log; exit 1; }
T installed
timeout 100 python3 -P -m pytest -m gpu -k "homes_taken" --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py > $OUT/new_test.txt 2>&1; echo "new test rc=$?"; grep -E "^E " $OUT/new_test.txt | head -6; tail -2 $OUT/new_test.txt
for r in 1 2; do
  PYTHONPATH=/tmp/v_mut timeout 100 python3 -P -m pytest -m gpu -k "homes_taken and direct" --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py > $OUT/mutant_$r.txt 2>&1; echo "mutant run $r rc=$?"; grep -E "^E " $OUT/mutant_$r.txt | head -3; tail -1 $OUT/mutant_$r.txt
done
T tests
timeout 150 python3 -P -m pytest -m gpu -k "homes or racing or at_home or no_evict" --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py > $OUT/o6_tests.txt 2>&1; echo "o6 tests rc=$?"; tail -2 $OUT/o6_tests.txt
T o6
