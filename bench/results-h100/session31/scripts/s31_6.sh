# session 31 call 6: copier test (and against a broken copier), queue-path stamps
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
PT="python3 -P -m pytest -m gpu -q -p no:cacheprovider -rf"
T copier_test
timeout 100 $PT --timeout 40 tests/test_copier_gpu.py > $OUT/copier_test.log 2>&1; echo rc=$?; tail -3 $OUT/copier_test.log
T stamps
cp .b31/queue_stamp2.cuh $INC/queue.cuh
for o in '{}' '{"queue_memory":"split"}'; do timeout 40 python3 -P .b31/qstamp.py "$o" 2>&1 | tail -2; done
cp dream/cuda/include/dream/queue.cuh $INC/queue.cuh
T broken
cp .b31/copier_broken.cuh $INC/copier.cuh
timeout 60 $PT --timeout 30 tests/test_copier_gpu.py -k batches > $OUT/broken.log 2>&1; echo rc=$?; grep -a "passed\|failed\|Error\|round" $OUT/broken.log | head -5
cp dream/cuda/include/dream/copier.cuh $INC/copier.cuh
T end
