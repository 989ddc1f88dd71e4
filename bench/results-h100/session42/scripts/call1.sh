# session 42 call 1: build this tree; serial fault of the queue transports: HEAD / A (queue path) / A+B (copier early reads),
# alternating; the copier GPU tests; softrnic's and nvme's quick GPU subset
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
cd /tmp
python3 -P $OLDPWD/.b42/mkvar.py /tmp/v_head $OLDPWD/.b42/head_hdr queue.cuh rnic.cuh nvme.cuh sync.cuh copier.cuh
python3 -P $OLDPWD/.b42/mkvar.py /tmp/v_a $OLDPWD/.b42/head_hdr copier.cuh
B="softrnic,softrnic:queue_memory=split,nvme,direct"
for r in 1 2; do
  for v in head a ab; do
    if [ $v = ab ]; then timeout 100 python3 -P $OLDPWD/.b42/serial.py $v $B; else PYTHONPATH=/tmp/v_$v timeout 100 python3 -P $OLDPWD/.b42/serial.py $v $B; fi
  done
  T "round $r"
done
cd $OLDPWD
timeout 120 python3 -P -m pytest tests/test_copier_gpu.py --timeout 60 -q -p no:cacheprovider -rf > $OUT/copier.txt 2>&1; echo copier rc=$?
tail -3 $OUT/copier.txt
T copier
timeout 200 python3 -P -m pytest -m gpu -k "softrnic and not stress" --timeout 60 -q -p no:cacheprovider -rf -x tests > $OUT/softrnic.txt 2>&1; echo softrnic rc=$?
tail -5 $OUT/softrnic.txt
T softrnic
