set -o pipefail; export PYTHONUNBUFFERED=1
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
H=$(python3 -P -c "import dream, os; print(os.path.dirname(dream.__file__))")/cuda/include/dream/direct.cuh
ls $H || exit 1
for slots in 2 8 0; do
  if [ $slots = 0 ]; then sed -i 's/#if __CUDA_ARCH__ >= 900/#if 0/' $H; else sed -i "s/#define DREAM_LONE_SLOTS .*/#define DREAM_LONE_SLOTS $slots/" $H; fi
  echo "== slots $slots (0: no TMA)"; timeout 100 python3 -P .base/lone_dream.py 2>&1 | tee -a $OUT/lone_dream.txt
done
