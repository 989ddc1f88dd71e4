# session 29: every general build capped (kernel and fault module) at 128 (as landed), 80, 64: CC/BFS cold, vector add cold
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
for cap in 128 64 80 128; do
  T "cap $cap"
  timeout 200 python3 -P .b29/capped2.py $cap .b29/gdiag.py cc,bfs 1 cold,genhome 2>&1 | cut -c1-150
  timeout 60 python3 -P .b29/capped2.py $cap .b29/vdiag.py $((1<<28)) "vadd 256,vgs 1056x256" 1 2>&1 | grep -v resident | cut -c1-60
done
T end
