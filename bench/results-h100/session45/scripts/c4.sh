# session 45 call 4: caps 80 and 64 with and without DREAM_REGISTER_CAP told to the headers ("n": not told), main twice
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
D=$PWD/bench/results-h100/session45/scripts/capped.py
g() { (cd /tmp && timeout 80 python3 -P $D $1 graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 2 --oversubscription 0 --systems dream --out $OUT/g$1 > /tmp/g$1.log 2>&1; echo rc=$?; grep -E "^\| (bfs|cc)" $OUT/g$1/graph.md | cut -c1-90); }
p() { (cd /tmp && timeout 60 python3 -P $D $1 polybench --kernels atax,vadd --backend direct --runs 2 --oversubscription 0 --systems dream --out $OUT/p$1 > /tmp/p$1.log 2>&1; echo rc=$?; grep -E "^\| " $OUT/p$1/polybench.md | grep dream | cut -c1-90); }
for v in 0 80n 64n 0 64; do g $v; p $v; T $v; done
rm -f $OUT/*/*.jsonl $OUT/*/*.png $OUT/*/*.csv
