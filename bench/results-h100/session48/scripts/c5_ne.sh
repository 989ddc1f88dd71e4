# Session 48, call 5: the no-evict build's gain before its host side exists.
# Carry [".b/ne"]: this tree's headers with DREAM_NO_EVICT_KERNEL defined at
# the top of dream.cuh (every launch compiled as one that evicts nothing:
# right only at x = 0, where every launch is one). Against the same tree
# unforced (the general build), alternating, in one call: cold BFS and CC
# launch by launch, then cold PolyBench and vector add.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD; P=$R/bench/results-h100/session45/scripts
for v in gen ne gen ne; do
  unset DREAM_INC; if [ $v = ne ]; then export DREAM_INC=$R/.b/ne/include; fi
  (cd /tmp && timeout 90 python3 -P $P/perlaunch.py 0 2>&1 | grep -E "^cap|cc_hook|bfs_step" | sed "s/^/$v /")
  T "$v graphs"
done
for v in gen ne; do
  unset DREAM_INC; if [ $v = ne ]; then export DREAM_INC=$R/.b/ne/include; fi
  (cd /tmp && timeout 120 python3 -P $P/capped.py 0 polybench --backend direct --oversubscription 0 --runs 3 --systems dream \
     --out /tmp/p_$v > /tmp/p_$v.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p_$v/polybench.md | cut -c1-120)
  T "$v polybench"
done
