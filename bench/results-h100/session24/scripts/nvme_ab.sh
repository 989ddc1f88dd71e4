# A/B: nvme warm 4 KiB gather, HEAD (A, .base/main_src) against the tree (B: engine reads cached blocks itself)
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
T built-B
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/A .base/main_src > /tmp/i2.log 2>&1 || { tail -30 /tmp/i2.log; exit 1; }
T built-A
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
B="python3 -P -m dream bench transfer --data 256MiB --page 4KiB --nvme-pages 4KiB --nvme-dir /tmp --runs 1"
BK="nvme:cache=warm,nvme:cache=warm;io_threads=2"
for r in 1 2; do
  T A$r; PYTHONPATH=/tmp/A timeout 150 $B --backend "$BK" --out /tmp/A$r 2>&1 | grep -vi "it/s\|%|" | tail -25; cp /tmp/A$r/transfer.json $OUT/A$r.json
  T B$r; timeout 150 $B --backend "$BK" --out /tmp/B$r 2>&1 | grep -vi "it/s\|%|" | tail -25; cp /tmp/B$r/transfer.json $OUT/B$r.json
done
T end
