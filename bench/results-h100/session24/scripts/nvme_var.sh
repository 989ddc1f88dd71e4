# nvme warm 4 KiB: engine/queue variants on the tree (engine reads cached blocks itself)
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
B="python3 -P -m dream bench transfer --data 256MiB --page 4KiB --nvme-pages 4KiB --nvme-dir /tmp --runs 3"
BK="nvme:cache=warm,nvme:cache=warm;queue_memory=split,nvme:cache=warm;engine_threads=8,nvme:cache=warm;engine_threads=8;queue_memory=split,nvme:cache=warm;engine_threads=2"
for r in 1 2; do
  T V$r; timeout 250 $B --backend "$BK" --out /tmp/V$r 2>&1 | grep -vi "it/s\|%|" | tail -5; cp /tmp/V$r/transfer.json $OUT/V$r.json
done
T end
