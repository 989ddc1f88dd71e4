# session 35 call 10: CC's first hook (E, G) and cold graphs with every kernel compiled whole at KR registers (--maxrregcount): occupancy of the general build
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
for kr in "" 64 40; do
  T "hook KR=$kr"
  for m in E G; do KR=$kr timeout 60 python3 -P .b35/fr.py .b35/hook2.py $m 3; done
done
for kr in "" 64; do
  T "graph KR=$kr"
  KR=$kr SYSTEMS=dream RUNS=1 timeout 90 python3 -P .b35/fr.py .b35/prof.py kr$kr 22 bfs,cc
done
T end
