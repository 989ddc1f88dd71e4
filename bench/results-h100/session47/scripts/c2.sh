# Session 47, call 2: wip/whole (fault.cuh O8, an array whole at home read there) against main in one call.
# Carry [".b/main", ".b/mut"]: main's headers (git archive main dream/cuda/include)
# and the branch's with the whole path's dirty mark removed (wrong on purpose).
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD; S=$R/bench/results-h100/session47/scripts; P=$R/bench/results-h100/session45/scripts/perlaunch.py
MAIN=$R/.b/main/dream/cuda/include
timeout 150 python3 -P -m pytest --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py \
  -k "direct and not nvme and (whole_at_home or no_eviction or homes or at_home or random_reads or divergent or span or read_ahead or racing)" > $OUT/gpu_tests.txt 2>&1; echo rc=$?
tail -3 $OUT/gpu_tests.txt
T tests
(cd /tmp && timeout 60 python3 -P $S/inc_pytest.py $R/.b/mut/include --timeout 40 -q -p no:cacheprovider -rf \
  $R/tests/test_core_gpu.py -k "whole_at_home and direct and not nvme" 2>&1 | tail -5)
T mutant
for v in main whole main whole; do
  if [ $v = main ]; then export DREAM_INC=$MAIN; else unset DREAM_INC; fi
  (cd /tmp && timeout 90 python3 -P $P 0 2>&1 | grep -E "^cap|cc_hook|bfs_step" | sed "s/^/$v /")
  T "$v graphs"
done
for v in main whole; do
  if [ $v = main ]; then export DREAM_INC=$MAIN; else unset DREAM_INC; fi
  (cd /tmp && timeout 60 python3 -P $R/bench/results-h100/session45/scripts/capped.py 0 polybench --kernels atax,mvt,vadd \
     --backend direct --runs 2 --oversubscription 0 --systems dream --out /tmp/p$v > /tmp/p.log 2>&1; \
   grep -E "^\| " /tmp/p$v/polybench.md | grep dream | cut -c1-100 | sed "s/^/$v /")
done
unset DREAM_INC
T polybench
(cd /tmp && timeout 150 python3 -P -m dream bench graph --graph kron --scale 22 --kernels bfs,cc --layouts csr --backend direct \
   --oversubscription 0 --runs 1 --systems dream --out /tmp/g > /tmp/g.log 2>&1; echo rc=$?; grep -E "^\| " /tmp/g/*.md | cut -c1-150 | head -8)
T "graph check"
