# Session 51, call 5: calls 1 and 4 stopped in the nvme half of pytest -m gpu
# at test_frame_wait_ends_in_a_named_timeout[nvme] (pytest-timeout's 120 s did
# not end it). That test alone, each nvme variant, with every thread's Python
# stack dumped after 40 s.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
for v in nvme nvme-hostq; do
  timeout -s KILL 110 python3 -P -m pytest -p no:timeout -o faulthandler_timeout=40 -q -s -p no:cacheprovider -rf -m gpu \
    "tests/test_core_gpu.py::test_frame_wait_ends_in_a_named_timeout[$v]" 2>&1 | tail -150
  T "$v"
done
