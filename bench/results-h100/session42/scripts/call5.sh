# session 42 call 5: serial fault HEAD / A (queue path) / A+C (copier polls by acquire), alternating; the 4 KiB
# transfer benchmark on softrnic, HEAD against A+C; the copier tests and softrnic's stress tests
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD
cd /tmp
python3 -P $R/.b42/mkvar.py /tmp/v_head $R/.b42/head_hdr queue.cuh rnic.cuh nvme.cuh sync.cuh copier.cuh
python3 -P $R/.b42/mkvar.py /tmp/v_a $R/.b42/a_hdr copier.cuh
B="softrnic,softrnic:queue_memory=split"
for r in 1 2; do
  for v in head a ac; do
    if [ $v = ac ]; then timeout 60 python3 -P $R/.b42/serial.py $v $B; else PYTHONPATH=/tmp/v_$v timeout 60 python3 -P $R/.b42/serial.py $v $B; fi
  done
  T "round $r"
done
for v in head ac; do
  if [ $v = ac ]; then P=; else P=/tmp/v_$v; fi
  PYTHONPATH=$P timeout 150 python3 -P -m dream bench transfer --data 1GiB --page 4KiB --backend softrnic --runs 2 --out $OUT/transfer_$v > $OUT/transfer_$v.txt 2>&1; echo transfer $v rc=$?
  grep -E "softrnic|bulk|batched" $OUT/transfer_$v.txt | tail -8
  T "transfer $v"
done
cd $R
timeout 150 python3 -P -m pytest tests/test_copier_gpu.py tests/test_stress_gpu.py -k "copier or softrnic" --timeout 60 -q -p no:cacheprovider -rf > $OUT/tests.txt 2>&1; echo tests rc=$?
tail -3 $OUT/tests.txt
T tests
