# session 36 call 1: the GPU suite's time, test by test (seconds in all, seconds compiling)
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T rest
DURFILE=rest.txt PYTHONPATH=.b36 timeout 340 python3 -P -m pytest -m gpu -k "not nvme" --timeout 60 -q -p no:cacheprovider -p durplug -rf --durations=40 tests 2>&1 | tail -60
T nvme
DURFILE=nvme.txt PYTHONPATH=.b36 timeout $(( 575 - ($(date +%s) - t0) )) python3 -P -m pytest -m gpu -k nvme --timeout 60 -q -p no:cacheprovider -p durplug -rf --durations=40 tests 2>&1 | tail -60
T end
