# session 38 call 8: pytest -m gpu, not nvme, on the landed code; then the nvme core tests in what time is left
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
timeout 235 python3 -P -m pytest -m gpu -k "not nvme" --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_not_nvme.txt 2>&1; echo pytest rc=$?
tail -6 $OUT/gpu_not_nvme.txt
T not_nvme
left=$(( 268 - $(date +%s) + t0 ))
[ $left -gt 20 ] && { timeout $left python3 -P -m pytest -m gpu -k nvme --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py > $OUT/gpu_nvme_core.txt 2>&1; echo pytest rc=$?; tail -4 $OUT/gpu_nvme_core.txt; }
T end
