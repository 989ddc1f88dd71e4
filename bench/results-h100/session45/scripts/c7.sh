# session 45 call 7: a bulk L2 prefetch of every page a warp's fault reads, before its copy turns (inc_pf), at 128
# and at 64 registers, against main's headers
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
D=$PWD/bench/results-h100/session45/scripts/capped.py; PF=$PWD/.b/s45/inc_pf  # dream/cuda/include with variants/direct_l2_prefetch.diff applied
g() { (cd /tmp && timeout 70 python3 -P $D $1 graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 2 --oversubscription 0 --systems dream --out $OUT/g$2 > /tmp/g.log 2>&1; echo rc=$?; grep -E "^\| (bfs|cc)" $OUT/g$2/graph.md | cut -c1-90); }
p() { (cd /tmp && timeout 50 python3 -P $D $1 polybench --kernels atax,vadd --backend direct --runs 2 --oversubscription 0 --systems dream --out $OUT/p$2 > /tmp/p.log 2>&1; echo rc=$?; grep -E "^\| " $OUT/p$2/polybench.md | grep dream | cut -c1-90); }
for v in main-0 pf-0 pf-64 main-64 pf-0b main-0b; do
  c=${v#*-}; c=${c%b}
  if [ ${v%%-*} = pf ]; then export DREAM_INC=$PF; else unset DREAM_INC; fi
  echo "## $v"; g $c $v; p $c $v; T $v
done
rm -f $OUT/*/*.jsonl $OUT/*/*.png $OUT/*/*.csv
