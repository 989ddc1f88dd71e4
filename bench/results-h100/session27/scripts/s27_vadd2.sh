set -o pipefail; export PYTHONUNBUFFERED=1
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
H=$(python3 -P -c "import dream, os; print(os.path.dirname(dream.__file__))")/cuda/include/dream/direct.cuh
cp $H /tmp/direct.orig
for v in tma none slot1 smem tma; do
  cp /tmp/direct.orig $H
  [ $v = none ] && sed -i 's/#if __CUDA_ARCH__ >= 900/#if 0/' $H
  [ $v = slot1 ] && sed -i 's/#define DREAM_LONE_SLOTS 2/#define DREAM_LONE_SLOTS 1/' $H
  [ $v = smem ] && python3 - $H <<'PY'
import sys
p=sys.argv[1]; s=open(p).read()
s=s.replace("#if __CUDA_ARCH__ >= 900", "#if 0", 1)
s=s.replace("#else\n    return false;\n#endif", "#else\n    __shared__ uint4 pad[512]; if (bytes == 1) { pad[threadIdx.x % 512] = *from; *to = pad[(threadIdx.x + 1) % 512]; }\n    return false;\n#endif", 1)
open(p,'w').write(s)
PY
  echo "== $v"
  timeout 100 python3 -P -m dream bench polybench --kernels vadd --n 16384 --backend direct --runs 3 --oversubscription 0 --systems dream --out /tmp/pb_$v > /tmp/pb.log 2>&1; grep "| dream" /tmp/pb_$v/polybench.md | tee -a $OUT/vadd_ab2.txt
done
