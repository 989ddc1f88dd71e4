# session 30: the floor of a serial 4 KiB fault (raw CUDA), against dream's serial fault, one call
set -o pipefail; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
timeout 120 python3 -P .b30/floor.py 2>&1 | tee $OUT/serial_floor.txt
