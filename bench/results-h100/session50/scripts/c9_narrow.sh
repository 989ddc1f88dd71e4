# Session 50, call 9 on main (e91a8ac), measurement only: the resident
# build's reads with a signed 32-bit index (dream_ptr::operator[] templated on
# the index type) checked against min(n, 2^31) and addressed from 32 bits
# (carry [".b/nw"], variants/narrow_index.diff: bfs_step 48 -> 32 registers,
# cc_hook 44 -> 37). Warm graphs launch by launch, alternating main and nw.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD; S=$R/bench/results-h100/session49/scripts/capne.py
export LABELS="cold warm warm"
for v in main nw main nw main nw; do
  unset DREAM_INC; if [ $v = nw ]; then export DREAM_INC=$R/.b/nw/include; fi
  (cd /tmp && timeout 80 python3 -P $S 0 graphs 2>&1 | grep "warm" | sed "s/^/$v /")
  T "$v graphs"
done
