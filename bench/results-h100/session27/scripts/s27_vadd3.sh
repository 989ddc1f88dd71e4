set -o pipefail; export PYTHONUNBUFFERED=1
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
H=$(python3 -P -c "import dream, os; print(os.path.dirname(dream.__file__))")/cuda/include/dream/direct.cuh
cp $H /tmp/direct.orig
for v in new none new none; do
  cp /tmp/direct.orig $H
  [ $v = none ] && sed -i 's/#if __CUDA_ARCH__ >= 900/#if 0/' $H
  echo "== $v"
  timeout 100 python3 -P -m dream bench polybench --kernels vadd --n 16384 --backend direct --runs 3 --oversubscription 0,8 --systems dream --out /tmp/pb_$v > /tmp/pb.log 2>&1; grep "| dream" /tmp/pb_$v/polybench.md | tee -a $OUT/vadd_ab3.txt
  [ $v = new ] && timeout 60 python3 -P .base/lone_dream.py 2>&1 | grep -E "serial|31 lanes/warp" | head -3
done
timeout 150 python3 -P .base/diag27.py 22 bfs 2>&1 | grep -E "run" | head -5
