# Session 51, call 4: the final tree's nvme half of pytest -m gpu, with the
# slowest tests named (call 1's run of it on main passed 167 tests before
# its 340 s bound).
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
timeout 560 python3 -P -m pytest --timeout 120 -q -p no:cacheprovider -rf --durations=15 -m gpu -k nvme tests 2>&1 | tail -24
T "nvme tests"
