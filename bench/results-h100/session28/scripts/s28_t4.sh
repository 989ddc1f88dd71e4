# session 28: blocks larger than the linked fault path allows (kernel.py builds per block size): the test on every backend, vector add cold by block size
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
T tests; timeout 300 python3 -P -m pytest -m gpu --timeout 150 -q -p no:cacheprovider -rf -k "larger_than or per_element or vadd_oversubscription" tests/test_core_gpu.py 2>&1 | tail -5
T vdiag; timeout 100 python3 -P .b28/vdiag.py $((1<<28)) "vadd 256,vadd 1024" 2 2>&1 | tee $OUT/vdiag_blocks.txt
T end
