# session 25 call 1: nvme warm A/B (M = 3f723e7, N = layout + recycled commands, F = N + a descriptor per engine thread);
# direct serial A/B (s24 = 3f723e7 headers, now = + no owner load in O6, c2 = + home lock with the claim); direct suite
set -o pipefail; export PYTHONUNBUFFERED=1
R=$(pwd); t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/M .base/s24_src > /tmp/i2.log 2>&1 || { tail -30 /tmp/i2.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/F .base/fd_src > /tmp/i3.log 2>&1 || { tail -30 /tmp/i3.log; exit 1; }
T built
B="python3 -P -m dream bench transfer --data 256MiB --page 4KiB --nvme-pages 4KiB --nvme-dir /tmp --runs 3"
for r in 1 2; do
  for v in M N F; do
    T $v$r; if [ $v = N ]; then PP=; else PP=/tmp/$v; fi
    PYTHONPATH=$PP timeout 100 $B --backend "nvme:cache=warm" --out /tmp/$v$r > /tmp/$v$r.log 2>&1; grep -i "error\|nvme" /tmp/$v$r.log | tail -4; cp /tmp/$v$r/transfer.json $OUT/nvme_$v$r.json
  done
done
I=$(cd /tmp && python3 -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
for r in 1 2; do
  for v in s24 now c2; do
    rm -rf $I; cp -r .base/inc_$v $I; T ser_$v$r; (cd /tmp && timeout 60 python3 $R/.base/ser.py $v) 2>&1 | tail -2 || true
  done
done
for v in now c2; do
  rm -rf $I; cp -r .base/inc_$v $I; T atax_$v; (cd /tmp && timeout 90 python3 $R/.base/atax_w.py $v 0) 2>&1 | tail -4 || true
done
rm -rf $I; cp -r .base/inc_now $I
T direct; timeout 110 python3 -P -m pytest -m gpu --timeout 100 -q -p no:cacheprovider -rf -k "not softrnic and not nvme" > $OUT/t_direct.log 2>&1; tail -2 $OUT/t_direct.log
T end
