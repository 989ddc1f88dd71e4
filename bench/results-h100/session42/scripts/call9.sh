# session 42 call 9: issue 11's targets on the final tree, in one run of the transfer benchmark at its default 8 GiB,
# with softrnic's queues in GPU memory (the default) and "split"
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
timeout 500 python3 -P -m dream bench transfer --data 8GiB --page 4KiB,64KiB --backend direct,softrnic,softrnic:queue_memory=split,nvme:cache=warm --runs 2 --out $OUT/t8 > $OUT/t8.log 2>&1; echo rc=$?
rm -f $OUT/t8/*.jsonl
tr '\r' '\n' < $OUT/t8.log | grep -E "baseline|GB/s|latency" | grep -v "point/s" | tail -30
T end
