# session 28: vector add's cold time, by variant
set -o pipefail; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
timeout 200 python3 -P .b28/vdiag.py $((1<<28)) 2>&1 | tee $OUT/vdiag.txt
