# session 35 call 7: per-instruction counts and stall samples (Nsight Compute source page, SASS) of CC's first hook, E / G / R
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
for m in E R G; do
  T "ncu $m"
  timeout 150 ncu --clock-control none -k regex:cc_hook -c 1 --section SourceCounters --section WarpStateStats -o /tmp/rep_$m python3 -P .b35/hook2.py $m 1 > /tmp/ncu_$m.log 2>&1; echo rc=$?; tail -2 /tmp/ncu_$m.log
  timeout 100 ncu -i /tmp/rep_$m.ncu-rep --page source --print-source sass --csv > $OUT/src_$m.csv 2>&1; echo rc=$?; wc -c $OUT/src_$m.csv; head -3 $OUT/src_$m.csv | cut -c1-400
done
T end
