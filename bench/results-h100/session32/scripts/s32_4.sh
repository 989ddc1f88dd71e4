# session 32 call 4: cold BFS / CC per launch, without and with arrays completed at a density threshold
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T plain
timeout 150 python3 -P .b32/diag_launch.py bfs cc
T complete50
COMPLETE=0.5 timeout 120 python3 -P .b32/diag_launch.py bfs cc
T complete10
COMPLETE=0.1 timeout 120 python3 -P .b32/diag_launch.py bfs cc
T end
