# session 43 call 5: the request's first ring try (eager CAS, marks read with rung) and waits that read the abort
# word only after 4 us (new, this tree) against call 4's headers (c4hdr) and each change alone (oldwait: new ring,
# old wait; oldring: old ring, new wait); serial fault on both softrnic engines; then the 8 GiB transfer benchmark
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD
cd /tmp
for v in c4hdr oldwait oldring; do python3 -P $R/.b43/mkvar.py /tmp/v_$v $R/.b43/$v $(ls $R/.b43/$v); done
for v in c4hdr new oldwait oldring c4hdr new oldwait oldring; do
  P=/tmp/v_$v; [ $v = new ] && P=
  PYTHONPATH=$P timeout 60 python3 -P $R/.b43/serial.py $v "softrnic:engine=gpu,softrnic"
done
T serial
timeout 330 python3 -P -m dream bench transfer --data 8GiB --page 4KiB,64KiB --backend softrnic:engine=gpu,softrnic --runs 1 --out $OUT/t8 > /tmp/t8.log 2>&1; echo rc=$?
rm -f $OUT/t8/*.jsonl
tr '\r' '\n' < /tmp/t8.log | grep -E "baseline|GB/s|latency|rror" | grep -v "point/s" | tail -16
T transfer
