# session 42 call 10: softrnic with "split" queues at the transfer benchmark's 8 GiB, HEAD's headers against this tree's
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD
cd /tmp
python3 -P $R/.b42/mkvar.py /tmp/v_head $R/.b42/head_hdr queue.cuh rnic.cuh nvme.cuh sync.cuh copier.cuh fault.cuh
for v in head new; do
  if [ $v = new ]; then P=; else P=/tmp/v_$v; fi
  PYTHONPATH=$P timeout 200 python3 -P -m dream bench transfer --data 8GiB --page 4KiB,64KiB --backend softrnic:queue_memory=split --runs 1 --out $OUT/split_$v > $OUT/split_$v.log 2>&1; echo $v rc=$?
  rm -f $OUT/split_$v/*.jsonl $OUT/split_$v/*.png
  tr '\r' '\n' < $OUT/split_$v.log | grep -E "bulk|softrnic" | grep -v "point/s" | tail -4
  T $v
done
