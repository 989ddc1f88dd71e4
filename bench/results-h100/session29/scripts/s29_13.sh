# session 29: the launch-bounds rebuild, final form (direct only, general build only): block-size, stress and
# read-ahead tests on every backend; launch-bounds vector add cold
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
T tests
timeout 300 python3 -P -m pytest -m gpu --timeout 200 -q -p no:cacheprovider -rf -k "larger_than or stress_in_blocks or per_element or launch_shape" tests/test_core_gpu.py tests/test_stress_gpu.py > $OUT/gpu_lb_final.log 2>&1; echo rc=$?; tail -3 $OUT/gpu_lb_final.log
T vdiag
timeout 150 python3 -P .b29/vdiag.py $((1<<28)) "vlb 1024,vlb8 1024,vadd 256" 2 2>&1 | grep -v resident | cut -c1-75 | tee $OUT/vdiag_lb_final.txt
T end
