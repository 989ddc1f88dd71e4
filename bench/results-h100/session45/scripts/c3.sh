# session 45 call 3: the general build capped at 80 and 64 registers (kernel module too) against main's link
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
D=$PWD/bench/results-h100/session45/scripts/capped.py
g() { (cd /tmp && timeout $2 python3 -P $D $1 graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 2 --oversubscription 0 --systems $3 --out $OUT/g$1 > /tmp/g$1.log 2>&1; echo rc=$?; grep -E "^\| (bfs|cc)" $OUT/g$1/graph.md); }
p() { (cd /tmp && timeout $2 python3 -P $D $1 polybench --kernels atax,bicg,vadd --backend direct --runs 2 --oversubscription 0 --systems $3 --out $OUT/p$1 > /tmp/p$1.log 2>&1; echo rc=$?; grep -E "^\| " $OUT/p$1/polybench.md | grep dream); }
g 0 110 dream,in_memory,uvm; T g0
g 80 80 dream; T g80
g 64 80 dream; T g64
p 0 80 dream; T p0
p 80 80 dream; T p80
g 0 80 dream; T g0again
rm -f $OUT/*/*.jsonl
