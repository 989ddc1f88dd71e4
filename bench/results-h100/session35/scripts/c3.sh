# session 35 call 3: softrnic 64 KiB stream (transfer.py's shape) with engine settings, engine counters
exec > $OUT/log.txt 2>&1
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
timeout 240 python3 -P .b35/rnic64.py 65536 direct softrnic 'softrnic:{"engine_threads":2}' 'softrnic:{"engine_threads":1}' 'softrnic:{"queue_memory":"split"}' 'softrnic:{"queues":16}' 'softrnic:{"dma":"copy-kernel"}' softrnic
