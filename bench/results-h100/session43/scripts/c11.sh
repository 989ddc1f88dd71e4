# session 43 call 11: the landed tree (the resident kernels' leave check shared, resident.cuh): the copy kernel's and
# the soft RNIC's GPU tests, the shared suite on softrnic's two engines, nvme's copy-kernel tests; the transfer
# benchmark at 8 GiB on softrnic, three runs
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
timeout 330 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf tests/test_copier_gpu.py tests/test_softrnic_gpu.py "tests/test_core_gpu.py" -k "not test_core_gpu or softrnic-gpuq or softrnic-hostengine or nvme-copyengines" > $OUT/gpu_sub.txt 2>&1; echo rc=$?
tail -6 $OUT/gpu_sub.txt
T pytest
(cd /tmp && timeout 200 python3 -P -m dream bench transfer --data 8GiB --page 4KiB,64KiB --backend softrnic --runs 3 --out $OUT/t8r3 > /tmp/t8.log 2>&1; echo rc=$?)
rm -f $OUT/t8r3/*.jsonl
tr '\r' '\n' < /tmp/t8.log | grep -E "baseline|GB/s|latency|rror" | grep -v "point/s" | tail -12
T transfer
