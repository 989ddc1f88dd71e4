# Session 51, call 1 on main (b27add5): the nvme half of pytest -m gpu (not run
# at session 50's stop), then cold and warm BFS and CC launch by launch.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
timeout 340 python3 -P -m pytest --timeout 120 -q -p no:cacheprovider -rf -m gpu -k nvme tests 2>&1 | tail -5
T "nvme tests"
(cd /tmp && timeout 180 python3 -P $OLDPWD/bench/results-h100/session45/scripts/perlaunch.py 0)
T perlaunch
