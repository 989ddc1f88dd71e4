# Session 48, call 1 (prepared in session 47, not yet run): wip/whole-test, i.e.
# a counter of O8's switches (DREAM_C_WHOLE, Stats.whole) and the whole-at-home
# test's pages written once (review of session 47), against main. Carry
# [".b/main"], made with
#   rm -rf .b/main && mkdir -p .b/main && git archive main dream pyproject.toml CMakeLists.txt README.md | tar -x -C .b/main
# Each of mkmut.py's three header sets must fail the test; the counter's cost
# shows in cold CC and BFS launch by launch.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/mainpkg .b/main > /tmp/m.log 2>&1 || { tail -30 /tmp/m.log; exit 1; }
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
for v in main branch main branch; do
  if [ $v = main ]; then export PYTHONPATH=/tmp/mainpkg; else unset PYTHONPATH; fi
  (cd /tmp && timeout 90 python3 -P $P 0 2>&1 | grep -E "^cap|cc_hook|bfs_step" | sed "s/^/$v /")
  T "$v graphs"
done
