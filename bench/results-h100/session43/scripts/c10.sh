# session 43 call 10: the final tree: pytest -m gpu -k "not nvme"; nvme with the page cache warm at 8 GiB, 4 KiB
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
timeout 360 python3 -P -m pytest -m gpu -k "not nvme" --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_notnvme.txt 2>&1; echo rc=$?
tail -8 $OUT/gpu_notnvme.txt
T pytest
(cd /tmp && timeout 170 python3 -P -m dream bench transfer --data 8GiB --page 4KiB --backend nvme:cache=warm --runs 1 --out $OUT/t8n > /tmp/t8n.log 2>&1; echo rc=$?)
rm -f $OUT/t8n/*.jsonl
tr '\r' '\n' < /tmp/t8n.log | grep -E "baseline|GB/s|latency|rror" | grep -v "point/s" | tail -12
T nvme_transfer
