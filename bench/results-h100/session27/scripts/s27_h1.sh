set -o pipefail; export PYTHONUNBUFFERED=1
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
H=$(python3 -P -c "import dream, os; print(os.path.dirname(dream.__file__))")/cuda/include/dream/direct.cuh
cp $H /tmp/direct.orig
for v in try test; do
  cp /tmp/direct.orig $H
  [ $v = test ] && sed -i 's/mbarrier.try_wait.parity.shared::cta.b64 p, \[%1\], 0;/mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0;/' $H
  grep -c "test_wait" $H
  echo "== $v"; timeout 200 python3 -P .base/diag27.py 22 cc,bfs 2>&1 | grep -E "all cold|col warm|resident|cc_hook  |bfs_step" | head -40 | tee -a $OUT/h1.txt
  timeout 60 python3 -P .base/lone_dream.py 2>&1 | grep -E "serial|31 lanes/warp" | head -3
done
