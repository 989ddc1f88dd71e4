# session 45 call 5: cold BFS and CC launch by launch, main's link against the build capped at 64 (told)
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
for c in 0 64 0 64; do (cd /tmp && timeout 100 python3 -P $OLDPWD/bench/results-h100/session45/scripts/perlaunch.py $c 2>&1 | grep -v Warn); done
