# session 37 call 5: the new test on every backend, the same test on a mutant (must fail), the O6 tests
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
(cd /tmp && python3 $OLDPWD/.b37/mutant.py) || exit 1
T installed
cd tests
timeout 200 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf -k "racing or no_eviction or at_home or scattered or span" test_core_gpu.py 2>&1 | tail -8
T tests
PYTHONPATH=/tmp/v_mut timeout 100 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf -k "racing and direct" test_core_gpu.py 2>&1 | tail -8
T mutant
