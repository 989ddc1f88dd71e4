# session 28: the sequence read-ahead on the GPU: its tests, the benchmarks it moves, then the suite's half without nvme
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
T new; timeout 200 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf -k "per_element or scattered_walk or read_ahead or column_walk" tests/test_core_gpu.py 2>&1 | tail -5
T vdiag; timeout 100 python3 -P .b28/vdiag.py $((1<<28)) "vadd 256,rd1 256,wr1 256,wpp 256,vgs 1056x256" 1 2>&1 | tee $OUT/vdiag.txt
T transfer; timeout 80 python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --runs 3 --backend direct --out $OUT/tr > /tmp/t.log 2>&1; cut -d, -f3-8 $OUT/tr/transfer.csv; grep -a serial /tmp/t.log | tr '\r' '\n' | grep serial
T rest; timeout 330 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf -k "not nvme" > $OUT/t_rest.log 2>&1; echo rc=$?; tail -8 $OUT/t_rest.log
T end
