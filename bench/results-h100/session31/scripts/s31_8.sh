# session 31 call 8: GPU suite, everything but nvme, on the new copier
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T suite
timeout 540 python3 -P -m pytest -m gpu -q -p no:cacheprovider -rf --timeout 120 -k "not nvme" > $OUT/gpu_rest.log 2>&1; echo rc=$?; tail -3 $OUT/gpu_rest.log
T end
