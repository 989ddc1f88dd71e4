set -o pipefail; export PYTHONUNBUFFERED=1
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
timeout 400 python3 -P .base/diag27.py ${1:-22} ${2:-cc,bfs} 2>&1 | tee $OUT/diag.txt
