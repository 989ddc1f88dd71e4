# session 31 call 9: GPU suite nvme half, then the transfer benchmark on softrnic (final code) against main's copier in the same call
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
T suite
timeout 420 python3 -P -m pytest -m gpu -q -p no:cacheprovider -rf --timeout 120 -k nvme > $OUT/gpu_nvme.log 2>&1; echo rc=$?; tail -3 $OUT/gpu_nvme.log
T transfer
for v in main new; do cp .b31/copier_$v.cuh $INC/copier.cuh; timeout 70 python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --runs 2 --backend softrnic --out $OUT/transfer_$v > $OUT/transfer_$v.log 2>&1; echo "$v rc=$?"; cut -d, -f3-8 $OUT/transfer_$v/transfer.csv; grep -a "bulk_h2d\|batched\|serial" $OUT/transfer_$v.log | tr '\r' '\n' | grep -a "bulk_h2d \|batched_copy\|serial" | tail -3; done
T end
