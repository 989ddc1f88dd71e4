# session 28: the fault module's register cap against cold time (vector add variants, ATAX, BFS, CC)
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
for cap in 128 64 96; do
T "cap $cap"
timeout 100 python3 -P .b28/capped.py $cap .b28/vdiag.py $((1<<28)) "vadd 256,vadd 1024,wpp 256,rd1 256,wr1 256" 1 2>&1 | grep -v resident | tee -a $OUT/vdiag_cap.txt
timeout 100 python3 -P .b28/capped.py $cap bench polybench --kernels atax --n 16384 --backend direct --runs 1 --oversubscription 0 --systems dream --out $OUT/atax_$cap > /tmp/a.log 2>&1; grep "| atax" $OUT/atax_$cap/polybench.md
timeout 200 python3 -P .b28/capped.py $cap bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 1 --oversubscription 0 --systems dream --out $OUT/graph_$cap > /tmp/g.log 2>&1; grep "| dream" $OUT/graph_$cap/graph.md || tail -5 /tmp/g.log
done
T end
