# copy-engine rate for scattered pages; softrnic thread and queue variants on the tree
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvcc -O2 -std=c++17 -o /tmp/ce64 .base/ce64.cu && timeout 90 /tmp/ce64 | tee $OUT/ce64.txt
T ce
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
B="python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --runs 3"
BK="softrnic,softrnic:engine_threads=8,softrnic:queue_memory=split,direct"
for r in 1 2; do
  T V$r; timeout 200 $B --backend "$BK" --out /tmp/V$r 2>&1 | grep -i "error" | tail -5; cp /tmp/V$r/transfer.json $OUT/V$r.json
done
T end
