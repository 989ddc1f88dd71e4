# session 32 call 16: PROTOTYPE: cold vector add, misses served by persistent warps (no read-ahead)
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
timeout 120 python3 -P .b32/served_vadd.py 2>&1 | tail -8
