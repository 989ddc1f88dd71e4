# session 26, after the review's fixes and the refactor (CopierRings, def_copier, sys-scope loads in sync.cuh)
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
T tests; timeout 200 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf tests/test_copier_gpu.py tests/test_softrnic_gpu.py tests/test_core_gpu.py -k "copier_gpu or engine_stopped or error_completion or ((softrnic-gpuq or nvme-hostq or copyengines) and (random_gather or atomics or scatter or writeback))" > $OUT/t_check.log 2>&1; echo rc=$?; tail -4 $OUT/t_check.log
T bench; timeout 100 python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --nvme-pages 4KiB --nvme-dir /tmp --runs 3 --backend "softrnic,nvme:cache=warm" --out $OUT/transfer > $OUT/bench.log 2>&1; grep -a "GB/s\|latency" $OUT/bench.log | sed 's/.*\r//' | grep -v baseline
T end
