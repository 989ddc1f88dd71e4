# session 28: read-ahead for a sequence of warps (DREAM_AHEAD_NEAR): off / depth 31 / depth 7
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
H=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream/fault.cuh
cp $H /tmp/fault.orig
for v in off d31 d7; do
cp /tmp/fault.orig $H
[ $v = off ] && sed -i 's/? DREAM_AHEAD_NEAR$/? 0/' $H
[ $v = d7 ] && sed -i 's/#define DREAM_NEAR_DEPTH 31/#define DREAM_NEAR_DEPTH 7/' $H
grep -c "? 0$" $H; grep "define DREAM_NEAR_DEPTH" $H
T "$v"
timeout 100 python3 -P .b28/vdiag.py $((1<<28)) "vadd 256,rd1 256,wr1 256,wpp 256,vgs 1056x256" 1 2>&1 | tee -a $OUT/vdiag_$v.txt
timeout 100 python3 -P -m dream bench polybench --kernels atax,vadd --n 16384 --backend direct --runs 1 --oversubscription 0,8 --systems dream --out $OUT/pb_$v > /tmp/a.log 2>&1; grep "| dream" $OUT/pb_$v/polybench.md
timeout 150 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 1 --oversubscription 0 --systems dream --out $OUT/graph_$v > /tmp/g.log 2>&1; grep "| dream" $OUT/graph_$v/graph.md || tail -5 /tmp/g.log
timeout 80 python3 -P -m dream bench transfer --data 256MiB --page 4KiB --runs 3 --backend direct --out $OUT/tr_$v > /tmp/t.log 2>&1; grep -E "stream|gather|serial" $OUT/tr_$v/transfer.csv /tmp/t.log | grep -v "^/tmp/t.log:.*baseline" | head -8
done
T end
