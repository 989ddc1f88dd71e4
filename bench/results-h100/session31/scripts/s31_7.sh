# session 31 call 7: fence costs; queue/rnic fences acq_rel vs sc (serial softrnic); copier test + broken copier
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
PT="python3 -P -m pytest -m gpu -q -p no:cacheprovider -rf"
T fences
timeout 30 python3 -P .b31/fences.py
T copier_test
timeout 60 $PT --timeout 40 tests/test_copier_gpu.py > $OUT/copier_test.log 2>&1; echo rc=$?; tail -3 $OUT/copier_test.log
T qfence
cp $INC/queue.cuh /tmp/queue_main.cuh; cp $INC/rnic.cuh /tmp/rnic_main.cuh
for v in main acqrel main acqrel; do
  if [ $v = main ]; then cp /tmp/queue_main.cuh $INC/queue.cuh; cp /tmp/rnic_main.cuh $INC/rnic.cuh; else cp .b31/queue_acqrel.cuh $INC/queue.cuh; cp .b31/rnic_acqrel.cuh $INC/rnic.cuh; fi
  echo "-- $v"; for o in '{}' '{"queue_memory":"split"}'; do timeout 30 python3 -P .b31/serial_soft.py "$o" 1000 2>&1 | tail -1; done
done
cp /tmp/queue_main.cuh $INC/queue.cuh; cp /tmp/rnic_main.cuh $INC/rnic.cuh
T broken
cp .b31/copier_broken.cuh $INC/copier.cuh
timeout 60 $PT --timeout 30 tests/test_copier_gpu.py -k batches > $OUT/broken.log 2>&1; echo rc=$?; grep -a "passed\|failed\|Error\|round" $OUT/broken.log | head -5
cp dream/cuda/include/dream/copier.cuh $INC/copier.cuh
T end
