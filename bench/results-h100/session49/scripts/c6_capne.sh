# Session 49, call 6 on main: capne.py, the no-evict build capped at 64 and
# 80 registers against main's 128: graphs launch by launch, then PolyBench
# and vector add at x = 0 (the no-evict build's launches).
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
S=$PWD/bench/results-h100/session49/scripts/capne.py
for c in 0 64 80 0 64; do
  (cd /tmp && timeout 100 python3 -P $S $c graphs 2>&1 | grep "^cap")
  T "graphs $c"
done
for c in 0 64 80; do
  (cd /tmp && timeout 100 python3 -P $S $c polybench --backend direct --oversubscription 0 --runs 3 --systems dream --out /tmp/p$c > /tmp/p$c.log 2>&1;
   echo "cap $c rc=$?"; grep '| dream' /tmp/p$c/polybench.md | cut -c1-110)
  T "polybench $c"
done
