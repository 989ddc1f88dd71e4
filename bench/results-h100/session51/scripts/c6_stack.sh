# Session 51, call 6: a module's load reserves the stack its kernels need
# (cuda.py reserve_stack): the new tests (a kernel needing 3,320 bytes of
# stack beside the copy kernel, nvme and softrnic, each in a fresh process),
# call 5's test alone, then the nvme half of pytest -m gpu.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
timeout 200 python3 -P -m pytest --timeout 150 -q -p no:cacheprovider -rf -m gpu tests/test_core_gpu.py \
  -k "more_stack or frame_wait_ends" 2>&1 | tail -4
T "stack tests"
timeout 420 python3 -P -m pytest --timeout 120 -q -p no:cacheprovider -rf --durations=6 -m gpu -k nvme tests 2>&1 | tail -14
T "nvme tests"
# the new test against main's package (.b/main, b27add5): its subprocess should
# run out of its 120 s, the copy kernel's life
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/mainpkg .b/main > /tmp/m.log 2>&1 || { tail -30 /tmp/m.log; exit 1; }
PYTHONPATH=/tmp/mainpkg timeout 170 python3 -P -m pytest --timeout 150 -q -p no:cacheprovider -rf -m gpu tests/test_core_gpu.py \
  -k "more_stack and nvme" 2>&1 | tail -4 | cut -c1-300
T "new test on main"
