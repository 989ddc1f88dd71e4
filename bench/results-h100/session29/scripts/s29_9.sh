# session 29: the direct copy's loads in flight (DREAM_COPY_UNROLL 8 / 4 / 2) for vector add cold with 1,024-thread
# blocks (a build of their own, compiled whole at 64 registers) and with 256 (the linked 128-register build)
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
D=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
cp $D/direct.cuh /tmp/direct.orig
for u in 8 2 4 8 2; do
  cp /tmp/direct.orig $D/direct.cuh
  sed -i "s/#define DREAM_COPY_UNROLL 8/#define DREAM_COPY_UNROLL $u/" $D/direct.cuh
  T "unroll $u"
  timeout 100 python3 -P .b29/vdiag.py $((1<<28)) "vadd 1024,vadd 256" 2 2>&1 | grep -v resident | cut -c1-75
done
cp /tmp/direct.orig $D/direct.cuh
T end
