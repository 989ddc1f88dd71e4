# Session 49, call 9 on wip/tma-warp: whole warps' reads through the TMA, up to
# 8 pages at once in a block's 8 slots (dream_tma_read batched), in
# builds capped below 128 registers (direct.cuh DREAM_COPY_TMA), against
# main's headers (carry .b/main: git archive main dream | tar -x -C .b/main),
# with capne.py capping the no-evict build at 64 (0: main's link). The
# benchmarks check every result (exact against SciPy and NumPy).
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD; S=$R/bench/results-h100/session49/scripts/capne.py
M=$R/.b/main/dream/cuda/include; W=$R/dream/cuda/include
timeout 150 python3 -P -m pytest --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py \
  -k "direct and (launch_shape or tiny_ring or bounds or lone or divergent)" > $OUT/tests.txt 2>&1; echo tests rc=$?; tail -2 $OUT/tests.txt
T tests
for v in "main 0" "main 64" "tma 64" "tma 0"; do
  set -- $v; if [ $1 = main ]; then export DREAM_INC=$M; else export DREAM_INC=$W; fi
  (cd /tmp && timeout 60 python3 -P $S $2 serial 2>&1 | grep "per fault" | head -2 | sed "s/^/$1 /")
  (cd /tmp && timeout 100 python3 -P $S $2 graphs 2>&1 | grep "^cap" | grep -v warm | sed "s/^/$1 /")
  (cd /tmp && timeout 100 python3 -P $S $2 polybench --kernels atax,bicg,vadd --backend direct --oversubscription 0 --runs 3 \
     --systems dream --out /tmp/p$1$2 > /tmp/p.log 2>&1; echo "$1 cap $2 rc=$?"; grep '| dream' /tmp/p$1$2/polybench.md | cut -c1-80)
  T "$v"
done
