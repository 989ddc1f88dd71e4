# e98adde (A) against cd383e7 (B, the checkout): softrnic 64 KiB stream, alternated
export PYTHONUNBUFFERED=1
for r in 1 2; do for v in A B; do
  if [ $v = A ]; then d=.base/e98; else d=.; fi
  (cd $d && python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1) || { tail -5 /tmp/i.log; exit 1; }
  timeout 60 python3 -P -m dream bench transfer --data 256MiB --page 64KiB --runs 3 --backend softrnic --out $OUT/ab_$v$r > $OUT/ab_$v$r.log 2>&1
  echo "$v$r: $(grep -a 'softrnic  ' $OUT/ab_$v$r.log | sed 's/.*\r//') $(grep -a bulk_h2d $OUT/ab_$v$r.log | sed 's/.*\r//')"
done; done
