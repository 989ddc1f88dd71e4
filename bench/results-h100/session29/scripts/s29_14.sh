# session 29, final: pytest -m gpu without nvme (direct, softrnic), the block-size tests on nvme, the transfer benchmark on direct
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
T suite
timeout 320 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf -k "not nvme" > $OUT/gpu_rest_final.log 2>&1; echo rc=$?; tail -2 $OUT/gpu_rest_final.log
T nvme-blocks
timeout 60 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf -k "nvme and larger_than" tests/test_core_gpu.py > $OUT/gpu_nvme_blocks_final.log 2>&1; echo rc=$?; tail -1 $OUT/gpu_nvme_blocks_final.log
T transfer
timeout 100 python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --runs 3 --backend direct --out $OUT/transfer_final > /tmp/t.log 2>&1; cut -d, -f4,6,7,8 $OUT/transfer_final/transfer.csv; grep -a "serial\|bulk_h2d" /tmp/t.log | tr '\r' '\n' | grep "serial\|bulk_h2d" | tail -2
T end
