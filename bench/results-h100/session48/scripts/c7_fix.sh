# Session 48, call 7: call 6's one failure was a test that read the build
# _pack returns as a bool (now a name); that test, fixed, on every backend,
# with the no-eviction tests beside it.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
timeout 120 python3 -P -m pytest -m gpu -k "arrays_at_home_beside or no_eviction_mode" --timeout 60 -q -p no:cacheprovider -rf \
  tests/test_core_gpu.py 2>&1 | tail -4
T tests
