set -o pipefail; export PYTHONUNBUFFERED=1
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
timeout 200 python3 -P -m pytest -m gpu --timeout 100 -q -p no:cacheprovider -rf --durations=4 -k "divergent_lanes" > $OUT/t_lone.log 2>&1; echo rc=$?; tail -8 $OUT/t_lone.log
