# session 43 call 8: on 256-thread engine blocks (va): the first ring try of a warp's last ticket by an acquire CAS
# with the marks read beside `rung` (ve), waits that read the abort word only after 4 us (vq), both (veq)
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
R=$PWD
cd /tmp
for v in va ve vq veq; do python3 -P $R/.b43/mkvar.py /tmp/v_$v $R/.b43/$v $(ls $R/.b43/$v) > /dev/null; sed -i 's/^SOFTRNIC_GPU_THREADS = 512/SOFTRNIC_GPU_THREADS = 256/' /tmp/v_$v/dream/verbs/mlx5.py; done
for r in 1 2 3; do for v in va ve vq veq; do
  PYTHONPATH=/tmp/v_$v timeout 60 python3 -P $R/.b43/serial.py $v "softrnic"
done; done
T serial
