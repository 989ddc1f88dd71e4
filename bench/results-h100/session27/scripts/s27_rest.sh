# session 27: the rest of the GPU suite, then the transfer benchmark
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
T rest; timeout 420 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf --durations=8 -k "not nvme" > $OUT/t_rest.log 2>&1; echo rc=$?; tail -15 $OUT/t_rest.log
T bench; timeout 120 python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --nvme-pages 4KiB --nvme-dir /tmp --runs 3 --backend "softrnic,softrnic:dma=copy-kernel,nvme:cache=warm" --out $OUT/transfer > $OUT/bench.log 2>&1; echo rc=$?; tail -30 $OUT/bench.log
T end
