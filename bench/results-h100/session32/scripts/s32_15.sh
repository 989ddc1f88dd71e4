# session 32 call 15: PROTOTYPE: BFS and CC cold, the step's O6 misses served by persistent warps
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
KERNEL=bfs SERVERS=16 MAIN=2 timeout 100 python3 -P .b32/served.py 2>&1 | tail -8
KERNEL=cc SERVERS=16 MAIN=1 timeout 100 python3 -P .b32/served.py 2>&1 | tail -8
