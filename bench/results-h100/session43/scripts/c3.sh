# session 43 call 3: the GPU engine's serial fault by parts (diagnostic queue.cuh), and two diagnostic variants:
# v1 doorbell record only (no system fence, no UAR store), v2 the fill's and ring's fences at GPU scope, v12 both
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD
cd /tmp
python3 -P $R/.b43/mkvar.py /tmp/v_dq $R/.b43/dq queue.cuh
for v in v1 v2 v12; do python3 -P $R/.b43/mkvar.py /tmp/v_$v $R/.b43/$v $(ls $R/.b43/$v); done
PYTHONPATH=/tmp/v_dq timeout 60 python3 -P $R/.b43/serial_diag.py dq "softrnic:engine=gpu,softrnic:engine=gpu:queue_memory=split"
for v in main v1 v2 v12 main v1 v2 v12; do
  P=/tmp/v_$v; [ $v = main ] && P=
  PYTHONPATH=$P timeout 60 python3 -P $R/.b43/serial.py $v "softrnic:engine=gpu"
done
T variants
