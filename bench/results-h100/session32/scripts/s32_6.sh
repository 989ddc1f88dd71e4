# session 32 call 6: cold BFS / CC per launch with fault stats; lone-lane staging slots 2 vs 4
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
for v in main slots4; do
  T "$v"
  cp .b32/v/direct_$v.cuh $INC/direct.cuh
  timeout 90 python3 -P .b32/diag_launch.py bfs cc > /tmp/d.log 2>&1; echo "rc=$?"; grep -E "cold|warm|[0-9]{2}\.[0-9]+ ms resident" /tmp/d.log
done
T end
