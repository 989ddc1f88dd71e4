# session 31 call 1: softrnic serial fault, where the time goes (GPU stamps; engine probe build)
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
T install
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
T installed
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
for o in '{}' '{"queue_memory":"split"}' '{"queue_memory":"host"}' '{"dma":"copy-engines"}' '{"engine_threads":1}'; do timeout 60 python3 -P .b31/serial_soft.py "$o"; done
T stamps
cp $INC/queue.cuh /tmp/queue_main.cuh; cp .b31/queue_stamp.cuh $INC/queue.cuh
timeout 60 python3 -P .b30/stamp.py 2>&1 | head -3
timeout 60 python3 -P .b31/serial_soft.py '{}' 1000 2>&1 | grep -v STAMP
timeout 60 python3 -P .b31/serial_soft.py '{}' 1000 2>&1 | grep STAMP | tail -8
timeout 60 python3 -P .b31/serial_soft.py '{"queue_memory":"split"}' 1000 2>&1 | grep STAMP | tail -4
cp /tmp/queue_main.cuh $INC/queue.cuh
T probe
cp .b31/softrnic_probe.cpp dream/cuda/softrnic.cpp
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i2.log 2>&1 || { tail -30 /tmp/i2.log; exit 1; }
T installed2
for o in '{}' '{"queue_memory":"split"}' '{"dma":"copy-engines"}'; do timeout 60 python3 -P .b31/serial_soft.py "$o" 2>&1; done
T end
