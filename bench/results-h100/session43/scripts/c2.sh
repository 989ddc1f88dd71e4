# session 43 call 2: the soft RNIC's GPU engine: its tests, serial fault, transfer against the host engine
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD
(cd /tmp && timeout 60 python3 -P $R/.b43/serial.py gpu "softrnic:engine=gpu,softrnic:engine=gpu:engine_threads=1,softrnic,direct")
T serial
timeout 200 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf -x tests/test_softrnic_gpu.py -k "gpu" > $OUT/t_rnic.txt 2>&1; echo rc=$?; tail -8 $OUT/t_rnic.txt
T tests
(cd /tmp && timeout 200 python3 -P -m dream bench transfer --data 1GiB --page 4KiB,64KiB --backend softrnic:engine=gpu,softrnic --runs 1 --out $OUT/t1 > /tmp/t1.log 2>&1; echo rc=$?; tr '\r' '\n' < /tmp/t1.log | grep -E "GB/s|latency|baseline|Error|error" | grep -v point/s | tail -14)
T transfer
