set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
T tests; timeout 540 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf --durations=5 -k "nvme or direct" > $OUT/t_last.log 2>&1; echo rc=$?; tail -12 $OUT/t_last.log
T end
