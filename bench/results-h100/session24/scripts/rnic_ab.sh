# A: session start (.base/main_src); C: the tree (per-thread counters in both engines, softnvme reads cached blocks)
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/A .base/main_src > /tmp/i2.log 2>&1 || { tail -30 /tmp/i2.log; exit 1; }
T built
B="python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --runs 3"
BK="softrnic,softrnic;engine_threads=8"
for r in 1 2; do
  for v in A C; do
    T $v$r; if [ $v = C ]; then PP=; else PP=/tmp/$v; fi
    PYTHONPATH=$PP timeout 200 $B --backend "$BK" --out /tmp/$v$r 2>&1 | grep -i "error" | tail -5; cp /tmp/$v$r/transfer.json $OUT/$v$r.json
  done
done
T end
