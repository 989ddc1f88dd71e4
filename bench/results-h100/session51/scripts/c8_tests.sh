# Session 51, call 8: the final tree (call 3 + the stack reserved at module load):
# the read-only tests on every backend, then pytest -m gpu -k "not nvme".
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
git log --oneline -1 2>/dev/null
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
timeout 120 python3 -P -m pytest --timeout 60 -q -p no:cacheprovider -rf -m gpu tests/test_core_gpu.py -k "read_only" 2>&1 | tail -2
T "read-only tests"
timeout 420 python3 -P -m pytest --timeout 120 -q -p no:cacheprovider -rf --durations=8 -m gpu -k "not nvme" tests 2>&1 | tail -16
T "gpu tests"
