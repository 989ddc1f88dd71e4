# session 27: the nvme half of the GPU suite (the pass's failure paths), then softrnic's queue placements on the copy kernel
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
T nvme; timeout 420 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf --durations=5 -k "nvme" > $OUT/t_nvme.log 2>&1; echo rc=$?; tail -12 $OUT/t_nvme.log
T bench; timeout 150 python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --runs 3 --backend "softrnic,softrnic:queue_memory=split,softrnic:queue_memory=host" --out $OUT/placements > $OUT/bench.log 2>&1; echo rc=$?; grep -E "baseline bulk|baseline batched|page|serial" $OUT/bench.log
T end
