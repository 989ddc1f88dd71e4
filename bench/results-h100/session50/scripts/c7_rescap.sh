# Session 50, call 7 on main (5b89775): the resident build's kernel module
# capped at 40 and 32 registers (capne.py, CAPBUILD=resident; uncapped
# bfs_step 48, cc_hook 44: 40 warps an SM in 256-thread blocks, 48 at 40,
# 64 at 32; in memory 32 and 26): warm graphs launch by launch, PolyBench's
# resident column, alternating with main's link.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
S=$PWD/bench/results-h100/session49/scripts/capne.py
export CAPBUILD=resident LABELS="cold warm warm"
for c in 0 40 32 0 40 32; do
  (cd /tmp && timeout 80 python3 -P $S $c graphs 2>&1 | grep "^cap" | sed "s/^/$c /")
  T "$c graphs"
done
for c in 0 40 32; do
  (cd /tmp && timeout 120 python3 -P $S $c polybench --backend direct --oversubscription 0 --runs 5 --systems dream \
     --out /tmp/p$c > /tmp/p$c.log 2>&1; echo "cap $c rc=$?"; grep '| dream' /tmp/p$c/polybench.md | cut -c1-120)
  T "$c polybench"
done
