# Session 50, call 1 on wip/shared-ptr (prepared in session 49, not yet run):
# a dream_ptr object in shared or global memory takes no hint (ptr.cuh
# dream_ref::hint). Carry [".b/main"]:
#   rm -rf .b/main && mkdir -p .b/main && git archive main dream pyproject.toml CMakeLists.txt README.md | tar -x -C .b/main
# The new test on every backend (it must pass here; on main's headers it
# should fail: a block's threads race on one hint's range), then the builds
# whose code changed (the resident build's graph module 1,656 -> 1,128 SASS
# instructions, the general build's +32) against main: warm and cold BFS and
# CC launch by launch, PolyBench resident and at x = 8.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/mainpkg .b/main > /tmp/m.log 2>&1 || { tail -30 /tmp/m.log; exit 1; }
T installed
R=$PWD; P=$R/bench/results-h100/session45/scripts; I=$R/bench/results-h100/session47/scripts/inc_pytest.py
timeout 150 python3 -P -m pytest --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py -k "shared_by_a_block" 2>&1 | tail -3
echo "on main's headers (expected to fail):"
(cd /tmp && timeout 90 python3 -P $I $R/.b/main/dream/cuda/include --timeout 60 -q -p no:cacheprovider $R/tests/test_core_gpu.py -k "shared_by_a_block and direct" 2>&1 | tail -1)
T tests
for v in main shared main shared; do
  unset PYTHONPATH; if [ $v = main ]; then export PYTHONPATH=/tmp/mainpkg; fi
  (cd /tmp && timeout 90 python3 -P $P/perlaunch.py 0 2>&1 | grep -E "^cap|cc_hook|bfs_step" | sed "s/^/$v /" | sed "s/faults .* wait/wait/")
  T "$v graphs"
done
for v in main shared; do
  unset PYTHONPATH; if [ $v = main ]; then export PYTHONPATH=/tmp/mainpkg; fi
  (cd /tmp && timeout 200 python3 -P -m dream bench polybench --backend direct --oversubscription 0,8 --runs 3 --systems dream \
     --out /tmp/p_$v > /tmp/p_$v.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p_$v/polybench.md | cut -c1-120)
  T "$v polybench"
done
