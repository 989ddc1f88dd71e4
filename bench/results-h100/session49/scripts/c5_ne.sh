# Session 49, call 5 on main: ne_warm.py (the no-evict build's access path
# apart from faults), then mkvar.py's `exit` against main once more.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD
(cd /tmp && timeout 150 python3 -P $R/bench/results-h100/session49/scripts/ne_warm.py 2>&1 | grep -v Warn)
T ne_warm
