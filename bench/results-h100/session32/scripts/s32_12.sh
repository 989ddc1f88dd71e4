# session 32 call 12: the floor of a fault served by another warp, against the warp itself and dream's serial fault
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
timeout 60 python3 -P .b32/server_floor.py
timeout 40 python3 -P .b32/serial_cap.py 128
