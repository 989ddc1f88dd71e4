# session 29: the direct copy's loads in flight and its inlining against the register cap (kernel + fault module):
# base (inline, 8 a page, 128), then inline 2 / noinline 4 at 80 and 64. CC/BFS cold, vector add, ATAX, transfer.
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
D=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
cp $D/direct.cuh /tmp/direct.orig
for v in $VARIANTS; do
  set -- $(echo $v | tr _ " ")
  cp /tmp/direct.orig $D/direct.cuh
  sed -i "s/#define DREAM_COPY_UNROLL 8/#define DREAM_COPY_UNROLL $2/" $D/direct.cuh
  [ $1 = noinline ] && sed -i 's/^__device__ __forceinline__ void dream_warp_copy(/__device__ __noinline__ void dream_warp_copy(/' $D/direct.cuh
  T "$v"
  timeout 150 python3 -P .b29/capped2.py $3 .b29/gdiag.py cc,bfs 1 cold 2>&1 | grep -v "shortcut\|resident build" | cut -c1-110
  timeout 60 python3 -P .b29/capped2.py $3 .b29/vdiag.py $((1<<28)) "vadd 256,vgs 1056x256" 1 2>&1 | grep -v resident | cut -c1-60
  timeout 100 python3 -P .b29/capped2.py $3 bench polybench --kernels atax,bicg --n 16384 --backend direct --runs 1 --oversubscription 0,8 --systems dream --out /tmp/pb > /tmp/a.log 2>&1; grep "| dream" /tmp/pb/polybench.md | cut -c1-60
  timeout 100 python3 -P .b29/capped2.py $3 bench transfer --data 256MiB --page 4KiB,64KiB --runs 3 --backend direct --out /tmp/tr > /tmp/t.log 2>&1; cut -d, -f4,6,7 /tmp/tr/transfer.csv | grep -v page; grep -a serial /tmp/t.log | tr '\r' '\n' | grep serial | tail -1
done
cp /tmp/direct.orig $D/direct.cuh
T end
