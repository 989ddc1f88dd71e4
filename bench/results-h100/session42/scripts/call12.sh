# session 42 call 12: softrnic "split" at 8 GiB, 4 KiB pages: HEAD / A+C (HEAD's fault.cuh) / this tree (A+C+L)
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD
cd /tmp
python3 -P $R/.b42/mkvar.py /tmp/v_head $R/.b42/head_hdr queue.cuh rnic.cuh nvme.cuh sync.cuh copier.cuh fault.cuh
python3 -P $R/.b42/mkvar.py /tmp/v_ac $R/.b42/ac_hdr fault.cuh
for v in head ac new; do
  if [ $v = new ]; then P=; else P=/tmp/v_$v; fi
  PYTHONPATH=$P timeout 150 python3 -P -m dream bench transfer --data 8GiB --page 4KiB --backend softrnic:queue_memory=split --runs 1 --out $OUT/s_$v > $OUT/s_$v.log 2>&1; echo $v rc=$?
  rm -f $OUT/s_$v/*.jsonl $OUT/s_$v/*.png
  cut -d, -f3,4,6,7 $OUT/s_$v/transfer.csv | tail -2
  T $v
done
