# session 43 call 7: variants of the final tree's GPU engine serial fault: va 256-thread engine blocks (232
# registers, no spills), vg the consumer polls its CQE by acquire at GPU scope with a local engine (no reload), vag both;
# and the diagnostic queue.cuh (request parts) on the final tree
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD
cd /tmp
for v in va vg vag; do python3 -P $R/.b43/mkvar.py /tmp/v_$v $R/.b43/$v $(ls $R/.b43/$v); done
for v in va vag; do sed -i 's/^SOFTRNIC_GPU_THREADS = 512/SOFTRNIC_GPU_THREADS = 256/' /tmp/v_$v/dream/verbs/mlx5.py; grep -n "^SOFTRNIC_GPU_THREADS" /tmp/v_$v/dream/verbs/mlx5.py; done
for v in new va vg vag new va vg vag; do
  P=/tmp/v_$v; [ $v = new ] && P=
  PYTHONPATH=$P timeout 60 python3 -P $R/.b43/serial.py $v "softrnic"
done
T serial
python3 -P $R/.b43/mkvar.py /tmp/v_dq2 $R/.b43/dq2 queue.cuh
PYTHONPATH=/tmp/v_dq2 timeout 60 python3 -P $R/.b43/serial_diag.py dq "softrnic"
T diag
