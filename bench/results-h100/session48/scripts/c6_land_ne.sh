# Session 48, call 6: the no-evict build (kernel.py NO_EVICT, fault.cuh
# dream_no_evict) with its host side. Carry [".b/main"] (main's tree, git
# archive main dream pyproject.toml CMakeLists.txt README.md). The builds
# taken wrong on purpose (force_ne.py) must fail the eviction tests; cold
# BFS and CC launch by launch against main, alternating; then the whole
# `pytest -m gpu -k "not nvme"` and the nvme tests of the no-eviction mode.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/mainpkg .b/main > /tmp/m.log 2>&1 || { tail -30 /tmp/m.log; exit 1; }
T installed
R=$PWD; S=$R/bench/results-h100/session48/scripts; P=$R/bench/results-h100/session45/scripts/perlaunch.py
echo "forced (must fail):"
(cd /tmp && timeout 120 python3 -P $S/force_ne.py --timeout 60 -q -p no:cacheprovider $R/tests/test_core_gpu.py \
   -k "direct and not nvme and ((vadd_oversubscription and (4-4 or 8-4)) or (random_gather and 8) or writeback_after_eviction)" 2>&1 | tail -2)
T forced
for v in main ne main ne; do
  unset PYTHONPATH; if [ $v = main ]; then export PYTHONPATH=/tmp/mainpkg; fi
  (cd /tmp && timeout 90 python3 -P $P 0 2>&1 | grep -E "^cap|cc_hook|bfs_step" | sed "s/^/$v /")
  T "$v graphs"
done
unset PYTHONPATH
timeout 330 python3 -P -m pytest -m gpu -k "not nvme" --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_not_nvme.txt 2>&1; echo rc=$?
tail -4 $OUT/gpu_not_nvme.txt
T "gpu not nvme"
timeout 90 python3 -P -m pytest -m gpu -k "nvme and (no_eviction or at_home or whole_at_home or (vadd_oversubscription and 4-))" \
  --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py > $OUT/gpu_nvme.txt 2>&1; echo rc=$?
tail -3 $OUT/gpu_nvme.txt
T "gpu nvme subset"
