# frame-wait backoff 1000 (landed) / 4000 / 16000 ns: header swaps, direct and softrnic streams and gathers
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
I=$(cd /tmp && python3 -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
B="python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --runs 3 --backend direct,softrnic"
for r in 1 2; do
  for v in cur b4 b16; do
    T $v$r; rm -rf $I; cp -r .base/inc_$v $I
    timeout 200 $B --out /tmp/$v$r 2>&1 | grep -i "error" | tail -5; cp /tmp/$v$r/transfer.json $OUT/$v$r.json
  done
done
T end
