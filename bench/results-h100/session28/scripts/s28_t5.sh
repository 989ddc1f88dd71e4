# session 28: the review's mends on the GPU (block cap per whole warp, the serial walk's new step): their tests, the transfer benchmark on direct
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
T tests; timeout 200 python3 -P -m pytest -m gpu --timeout 150 -q -p no:cacheprovider -rf -k "larger_than or scattered_walk or per_element" tests/test_core_gpu.py 2>&1 | tail -3
T transfer; timeout 100 python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --runs 3 --backend direct --out $OUT/transfer_direct > /tmp/t.log 2>&1; cut -d, -f3-8 $OUT/transfer_direct/transfer.csv; grep -a serial /tmp/t.log | tr '\r' '\n' | grep serial
T end
