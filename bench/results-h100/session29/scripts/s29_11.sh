# session 29: the capped builds' copy (DREAM_COPY_UNROLL by DREAM_REGISTER_CAP): GPU suite without nvme, vector add
# cold by block size, transfer on direct
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
T vdiag
timeout 150 python3 -P .b29/vdiag.py $((1<<28)) "vadd 1024,vadd 768,vadd 640,vadd 256" 2 2>&1 | grep -v resident | cut -c1-75 | tee $OUT/vdiag_blocks.txt
T transfer
timeout 100 python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --runs 3 --backend direct --out $OUT/transfer > /tmp/t.log 2>&1; cut -d, -f4,6,7,8 $OUT/transfer/transfer.csv; grep -a serial /tmp/t.log | tr '\r' '\n' | grep serial | tail -1
T suite
timeout 330 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf -k "not nvme" > $OUT/gpu_rest.log 2>&1; echo rc=$?; tail -4 $OUT/gpu_rest.log; grep -a "stress 1024" $OUT/gpu_rest.log | cut -c1-300
T end
