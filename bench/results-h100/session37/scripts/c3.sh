# session 37 call 3: the early start (one need lane only): serial fault, then the whole pytest -m gpu
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
(cd /tmp && timeout 60 python3 -P $OLDPWD/.b37/serial.py new 2>&1 | tail -3)
T serial
timeout 530 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf --durations=25 tests > $OUT/gpu_all.txt 2>&1; echo pytest rc=$?
tail -45 $OUT/gpu_all.txt
T end
