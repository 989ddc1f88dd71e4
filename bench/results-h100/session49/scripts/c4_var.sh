# Session 49, call 4 on main: mkvar.py's header variants (measurement only)
# against main, cold and warm BFS and CC launch by launch, alternating.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD; P=$R/bench/results-h100/session45/scripts
python3 $R/bench/results-h100/session49/scripts/mkvar.py /tmp/var
for v in main nodirty exit both main exit; do
  unset DREAM_INC; if [ $v != main ]; then export DREAM_INC=/tmp/var/$v; fi
  (cd /tmp && timeout 90 python3 -P $P/perlaunch.py 0 2>&1 | grep -E "^cap|cc_hook|bfs_step" | sed "s/^/$v /" | sed "s/faults .* wait/wait/")
  T "$v"
done
