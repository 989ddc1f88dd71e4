# session 42 call 11: waits that poll relaxed and fence once (R, this tree) against acquires on every poll (the
# commit dc59a80): serial fault alternating; 8 GiB transfer at 4 KiB, softrnic and "split"
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD
cd /tmp
python3 -P $R/.b42/mkvar.py /tmp/v_acq $R/.b42/acq_hdr queue.cuh rnic.cuh sync.cuh
B="softrnic,softrnic:queue_memory=split"
for r in 1 2; do
  PYTHONPATH=/tmp/v_acq timeout 60 python3 -P $R/.b42/serial.py acq $B
  timeout 60 python3 -P $R/.b42/serial.py R $B
  T "round $r"
done
for v in acq R; do
  if [ $v = R ]; then P=; else P=/tmp/v_$v; fi
  PYTHONPATH=$P timeout 200 python3 -P -m dream bench transfer --data 8GiB --page 4KiB --backend softrnic,softrnic:queue_memory=split --runs 1 --out $OUT/t_$v > $OUT/t_$v.log 2>&1; echo $v rc=$?
  rm -f $OUT/t_$v/*.jsonl $OUT/t_$v/*.png
  tr '\r' '\n' < $OUT/t_$v.log | grep -E "softrnic" | grep -v "point/s" | tail -4
  T $v
done
