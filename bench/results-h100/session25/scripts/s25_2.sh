# session 25 call 2: engine pass timing (tm_src = HEAD + steady_clock stamps per pass step), nvme queue placements; then HEAD's softrnic and nvme suites
set -o pipefail; export PYTHONUNBUFFERED=1
R=$(pwd); t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/T .base/tm_src > /tmp/i2.log 2>&1 || { tail -30 /tmp/i2.log; exit 1; }
T built
PYTHONPATH=/tmp/T timeout 150 python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --nvme-pages 4KiB --nvme-dir /tmp --runs 3 --backend "softrnic,nvme:cache=warm,nvme:cache=warm;queue_memory=split,nvme:cache=warm;queue_memory=host" --out /tmp/tm > /tmp/tm.log 2>&1; grep -v "transfer:" /tmp/tm.log | tail -22; cp /tmp/tm/transfer.json $OUT/tm.json
P="python3 -P -m pytest -m gpu --timeout 100 -q -p no:cacheprovider -rf"
T soft; timeout 150 $P -k softrnic > $OUT/t_soft.log 2>&1; tail -2 $OUT/t_soft.log
T nvme; timeout 260 $P -k nvme > $OUT/t_nvme.log 2>&1; tail -2 $OUT/t_nvme.log
T end
