# Session 46, call 4: reads at home loaded before their check (this tree)
# against main's headers (.b/main, carried; DREAM_INC through session45's
# capped.py at cap 0, which links as main does): graphs and PolyBench at
# x = 0, cold and resident, with in-memory in the same run; then the GPU
# tests of checks and at-home accesses.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
R=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
C=$R/bench/results-h100/session45/scripts/capped.py
cd /tmp
for v in main lf; do
  if [ $v = main ]; then export DREAM_INC=$R/.b/main/dream/cuda/include; else unset DREAM_INC; fi
  timeout 120 python3 -P $C 0 graph --kernels bfs,cc --layouts csr --backend direct --runs 2 --oversubscription 0 \
    --systems dream,in_memory --out /tmp/g$v > /tmp/g$v.log 2>&1 || tail -5 /tmp/g$v.log
  grep -E "^\| " /tmp/g$v/graph.md | grep -v -- "---" | sed "s/^/$v /"
  timeout 120 python3 -P $C 0 polybench --kernels atax,mvt,bicg,vadd --backend direct --runs 3 --oversubscription 0 \
    --systems dream,in_memory --out /tmp/p$v > /tmp/p$v.log 2>&1 || tail -5 /tmp/p$v.log
  grep -E "^\| " /tmp/p$v/polybench.md | grep -v -- "---" | sed "s/^/$v /"
  T $v
done
unset DREAM_INC
cd $R
timeout 150 python3 -P -m pytest --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py \
  -k "bounds or mismatch or at_home or resident" > $OUT/gpu_checks.txt 2>&1; echo rc=$?
tail -3 $OUT/gpu_checks.txt
T tests
