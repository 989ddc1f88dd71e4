# session 26, last: the copy kernel's GPU tests, then the transfer benchmark on the landed code (copy kernel by default)
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
T copier; timeout 120 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf tests/test_copier_gpu.py 2>&1 | tail -3
T bench; timeout 300 python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --nvme-pages 4KiB --nvme-dir /tmp --runs 3 --backend "softrnic,softrnic:dma=copy-engines,nvme:cache=warm,nvme:cache=warm;dma=copy-engines" --out $OUT/transfer > $OUT/bench.log 2>&1; grep -a "GB/s\|latency" $OUT/bench.log | sed 's/.*\r//'
T end
