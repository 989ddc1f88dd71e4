# session 32 call 3: GPU suite (nvme) on the review fixes
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T tests
timeout 540 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf -k nvme > $OUT/gpu_nvme.txt 2>&1; echo rc=$?; tail -5 $OUT/gpu_nvme.txt
T end
