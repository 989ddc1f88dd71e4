# session 26, call 2: the copy kernel (dma="copy-kernel"): CPU protocol tests, a GPU subset, transfer bench A/B
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
T cpu; timeout 60 python3 -P -m pytest -q -p no:cacheprovider tests/test_copier.py 2>&1 | tail -2
T gpu-subset; timeout 200 python3 -P -m pytest -m gpu --timeout 40 -q -x -p no:cacheprovider -rf -k "copykernel and (vadd_oversubscription or random_gather or atomics or writeback or scatter or crashes or timeout)" tests/test_core_gpu.py > $OUT/t_subset.log 2>&1; tail -15 $OUT/t_subset.log
T bench; timeout 300 python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --nvme-pages 4KiB --nvme-dir /tmp --runs 3 --backend "softrnic,softrnic:dma=copy-kernel,nvme:cache=warm,nvme:cache=warm;dma=copy-kernel" --out $OUT/transfer > $OUT/bench.log 2>&1; tail -40 $OUT/bench.log
T end
