# session 37 call 7: the direct tests of test_bench_gpu and test_core_gpu with per-test seconds (session 36: 78 tests, 106 s)
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
cd tests && DURFILE=dur.txt PYTHONPATH=$OLDPWD/.b37 timeout 220 python3 -P -m pytest -p durplug -m gpu --timeout 60 -q -p no:cacheprovider -rf -k "not softrnic and not nvme" test_bench_gpu.py test_core_gpu.py 2>&1 | tail -4
awk '{s+=$1; c+=$2; n++} END {print n, s, c}' $OUT/dur.txt
T end
