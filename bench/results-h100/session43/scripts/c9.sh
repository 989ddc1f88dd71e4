# session 43 call 9: the final tree: serial fault; issue 11's targets in one run of the transfer benchmark at 8 GiB
# (softrnic's GPU engine, the default now, and its host threads; direct);
# pytest -m gpu -k nvme
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD
(cd /tmp && timeout 60 python3 -P $R/.b43/serial.py final "softrnic,softrnic:engine=host,direct")
T serial
(cd /tmp && timeout 300 python3 -P -m dream bench transfer --data 8GiB --page 4KiB,64KiB --backend softrnic,softrnic:engine=host,direct --runs 1 --out $OUT/t8 > /tmp/t8.log 2>&1; echo rc=$?)
rm -f $OUT/t8/*.jsonl
tr '\r' '\n' < /tmp/t8.log | grep -E "baseline|GB/s|latency|rror" | grep -v "point/s" | tail -20
T transfer
timeout 300 python3 -P -m pytest -m gpu -k nvme --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_nvme.txt 2>&1; echo nvme rc=$?
tail -6 $OUT/gpu_nvme.txt
T nvme
