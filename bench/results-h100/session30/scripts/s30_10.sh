# session 30, final: cold vs resident per launch (gdiag) on the final code and with no bounds check anywhere (experiment, not landed); the bench GPU tests; the nvme half of the GPU suite
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
cp $INC/fault.cuh /tmp/fault_final.cuh
T gdiag-final; timeout 100 python3 -P .b30/gdiag.py cc,bfs 1 cold,resident,genentry 2>&1 | grep -v "build:" | tee $OUT/gdiag_final.txt
T gdiag-nocheck; cp .b30/fault_nocheck_all.cuh $INC/fault.cuh; timeout 90 python3 -P .b30/gdiag.py cc,bfs 1 cold,resident,genentry 2>&1 | grep -v "build:" | tee $OUT/gdiag_nocheck.txt
cp /tmp/fault_final.cuh $INC/fault.cuh
T bench-gpu; timeout 100 python3 -P -m pytest -m gpu --timeout 90 -q -p no:cacheprovider -rf -k "not nvme" tests/test_bench_gpu.py > $OUT/gpu_bench.log 2>&1; echo rc=$?; tail -2 $OUT/gpu_bench.log
T suite-nvme
timeout 320 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf -k "nvme" > $OUT/gpu_nvme.log 2>&1; echo rc=$?; tail -3 $OUT/gpu_nvme.log
T end
