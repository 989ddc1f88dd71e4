# session 31: the resident failure record (one plain store): GPU suite without nvme, the shared core tests on nvme, CC hook
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
PT="python3 -P -m pytest -q -p no:cacheprovider -rf"
T targeted
timeout 90 $PT --timeout 60 tests/test_abi.py tests/test_compile.py tests/test_core_gpu.py -k "abi or resident_build or out_of_bounds or type_mismatch" > $OUT/targeted.log 2>&1; echo rc=$?; tail -2 $OUT/targeted.log
T rest
timeout 300 $PT -m gpu --timeout 120 -k "not nvme" > $OUT/gpu_rest.log 2>&1; echo rc=$?; tail -2 $OUT/gpu_rest.log
T nvme_core
timeout 100 $PT -m gpu --timeout 60 tests/test_core_gpu.py -k "nvme and (bounds or type or home or resident or vadd)" > $OUT/gpu_nvme_core.log 2>&1; echo rc=$?; tail -2 $OUT/gpu_nvme_core.log
T end
