# session 36, every call: `pytest -m gpu` in its two halves, one line per test (durplug.py);
# the first half limited to REST_LIMIT s (call 1: 340, call 2: 330, call 3: 300), the second to the call's end
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T rest
DURFILE=rest.txt PYTHONPATH=.b36 timeout ${REST_LIMIT:-300} python3 -P -m pytest -m gpu -k "not nvme" --timeout 60 -q -p no:cacheprovider -p durplug -rf --durations=15 tests 2>&1 | tail -25
T nvme
DURFILE=nvme.txt PYTHONPATH=.b36 timeout $(( 588 - ($(date +%s) - t0) )) python3 -P -m pytest -m gpu -k nvme --timeout 60 -q -p no:cacheprovider -p durplug -rf --durations=15 tests 2>&1 | tail -25
T end
