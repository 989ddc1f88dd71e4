# I: engine reads cached blocks; C: + one fetch wait per pass, counters per thread, an fd per thread (the tree)
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/I .base/inline_src > /tmp/i3.log 2>&1 || { tail -30 /tmp/i3.log; exit 1; }
T built
B="python3 -P -m dream bench transfer --data 256MiB --page 4KiB --nvme-pages 4KiB --nvme-dir /tmp --runs 3"
BK="nvme:cache=warm,nvme:cache=warm;engine_threads=8"
for r in 1 2; do
  for v in I C; do
    T $v$r; if [ $v = C ]; then PP=; else PP=/tmp/$v; fi
    PYTHONPATH=$PP timeout 150 $B --backend "$BK" --out /tmp/$v$r 2>&1 | grep -i "error" | tail -5; cp /tmp/$v$r/transfer.json $OUT/$v$r.json
  done
done
T end
