# session 37 call 4: the rest of pytest -m gpu (the stress tests call 3 did not reach)
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
cd tests && timeout 450 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf --durations=15 $(cat ../.b37/rest.txt) > $OUT/gpu_rest.txt 2>&1; echo pytest rc=$?
tail -30 $OUT/gpu_rest.txt
T end
