# session 28: lone lanes' staging slots a block (direct.cuh DREAM_LONE_SLOTS 2 / 4 / 8) against BFS and CC cold (Kronecker 22) and the lone-lane benchmark
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
H=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream/direct.cuh
cp $H /tmp/direct.orig
for v in 2 4 8; do
cp /tmp/direct.orig $H; sed -i "s/#define DREAM_LONE_SLOTS 2/#define DREAM_LONE_SLOTS $v/" $H; grep "define DREAM_LONE_SLOTS" $H
timeout 150 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 1 --oversubscription 0 --systems dream --out $OUT/graph_$v > /tmp/g.log 2>&1; grep "| dream" $OUT/graph_$v/graph.md || tail -5 /tmp/g.log
done
cp /tmp/direct.orig $H
T end
