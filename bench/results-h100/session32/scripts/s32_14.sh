# session 32 call 14: PROTOTYPE: the serial fault served by persistent warps
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
timeout 100 python3 -P .b32/served_serial.py 2>&1 | tail -20
