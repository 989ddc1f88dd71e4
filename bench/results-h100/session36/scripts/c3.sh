# session 36 call 3: the GPU suite after the nvme work share and the read-ahead test are trimmed
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T rest
DURFILE=rest.txt PYTHONPATH=.b36 timeout 300 python3 -P -m pytest -m gpu -k "not nvme" --timeout 60 -q -p no:cacheprovider -p durplug -rf --durations=15 tests 2>&1 | tail -25
T nvme
DURFILE=nvme.txt PYTHONPATH=.b36 timeout $(( 588 - ($(date +%s) - t0) )) python3 -P -m pytest -m gpu -k nvme --timeout 60 -q -p no:cacheprovider -p durplug -rf --durations=15 tests 2>&1 | tail -25
T end
