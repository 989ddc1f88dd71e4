# Session 48, call 2 on wip/whole-bit2: call 1 found wip/whole-bit's BFS
# faster than wip/whole-test's (cold 166-172 vs 170-177 ms) but CC's first
# hook slower (226-239 vs 195-202 ms): there every read of the whole comp
# misses its hint and rewrote it. Here a read once whole leaves the hint.
# Carry [".b/wt", ".b/bit"]: wip/whole-test's and wip/whole-bit's headers
# (git archive <branch> dream/cuda/include | tar -x -C .b/<name>), run
# through DREAM_INC (the three share their Python).
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD; S=$R/bench/results-h100/session48/scripts; P=$R/bench/results-h100/session45/scripts/perlaunch.py
python3 -P $S/mkmut.py /tmp/muts
timeout 200 python3 -P -m pytest --timeout 60 -q -p no:cacheprovider -rf tests/test_abi.py tests/test_core_gpu.py \
  -k "mirror or whole_at_home or no_eviction or at_home or random_reads" > $OUT/gpu_tests.txt 2>&1; echo rc=$?
tail -3 $OUT/gpu_tests.txt
T tests
for m in switch_unmarked read_switch_as_marked whole_write_unmarked; do
  echo "mutant $m (must fail):"
  (cd /tmp && timeout 60 python3 -P $R/bench/results-h100/session47/scripts/inc_pytest.py /tmp/muts/$m --timeout 40 -q \
     -p no:cacheprovider -rf $R/tests/test_core_gpu.py -k "whole_at_home and direct and not nvme" 2>&1 | tail -1)
done
T mutants
for v in wt bit bit2 wt bit bit2; do
  unset DREAM_INC
  if [ $v != bit2 ]; then export DREAM_INC=$R/.b/$v/dream/cuda/include; fi
  (cd /tmp && timeout 90 python3 -P $P 0 2>&1 | grep -E "^cap|cc_hook|bfs_step" | sed "s/^/$v /")
  T "$v graphs"
done
