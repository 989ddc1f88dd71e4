# Session 48, call 4: where BFS's third launch (one thread walks 163,060
# edges) spends its time, instruction by instruction: Nsight Compute's
# source counters (SASS: instructions executed, stall samples) of that
# launch cold (general build), warm (resident build) and in memory.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD; S=$R/bench/results-h100/session48/scripts
for m in cold:2 warm:9 mem:2; do
  k=${m%:*}; skip=${m#*:}
  (cd /tmp && timeout 150 ncu --clock-control none -k regex:bfs_step --launch-skip $skip --launch-count 1 --section SourceCounters \
     -o /tmp/rep_$k python3 -P $S/walk.py $k > /tmp/ncu_$k.log 2>&1; echo "$k rc=$?"; tail -3 /tmp/ncu_$k.log)
  timeout 100 ncu -i /tmp/rep_$k.ncu-rep --page source --print-source sass --csv > $OUT/src_$k.csv 2>/dev/null; echo rc=$?; wc -c $OUT/src_$k.csv
  timeout 60 ncu -i /tmp/rep_$k.ncu-rep --page details --csv 2>/dev/null | grep -E "Duration|Registers|Executed Instructions\"" | head -5
  T "ncu $k"
done
