# Session 50, call 5 on main (7459ae4): capne.py, the no-evict build at
# 80 and 64 registers with the cap not told to the headers (8 loads in
# flight a lane, the early start kept) and at 80 told, against main's 128:
# serial fault, cold vector add and BICG at x = 0, cold graphs.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
S=$PWD/bench/results-h100/session49/scripts/capne.py
for c in 0 80n 64n 80; do
  (cd /tmp && timeout 60 python3 -P $S $c serial 2>&1 | tail -1 | sed "s/^/$c /")
  (cd /tmp && timeout 100 python3 -P $S $c polybench --backend direct --oversubscription 0 --runs 3 --systems dream --kernels vadd,bicg \
     --out /tmp/p$c > /tmp/p$c.log 2>&1; echo "cap $c rc=$?"; grep '| dream' /tmp/p$c/polybench.md | cut -c1-60)
  T "$c serial, polybench"
done
export LABELS="cold cold"
for c in 80n 0 64n 80; do
  (cd /tmp && timeout 80 python3 -P $S $c graphs 2>&1 | grep "^cap" | sed "s/^/$c /")
  T "$c graphs"
done
