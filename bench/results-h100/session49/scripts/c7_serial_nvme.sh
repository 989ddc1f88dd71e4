# Session 49, call 7 on main (dream/ and tests as calls 1-2 ran them): the
# serial fault (session 35's serial.py: one warp, 2,000 pages, direct), then
# `pytest -m gpu -k nvme`, as far as the call's time goes.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD
(cd /tmp && for i in 1 2; do timeout 60 python3 -P $R/bench/results-h100/session35/scripts/serial.py main 2>&1 | grep "per fault"; done)
T serial
timeout 480 python3 -P -m pytest -m gpu -k nvme --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_nvme.txt 2>&1; echo rc=$?
tail -4 $OUT/gpu_nvme.txt
T "gpu nvme"
