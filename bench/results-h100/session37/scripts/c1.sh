# session 37 call 1: issue 11's targets in one run of the transfer benchmark at its default 8 GiB
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
timeout 500 python3 -P -m dream bench transfer --data 8GiB --page 4KiB,64KiB --backend direct,softrnic,nvme:cache=warm --runs 3 --out $OUT/t8 > $OUT/t8.log 2>&1; echo rc=$?
rm -f $OUT/t8/*.png $OUT/t8/*.jsonl
tail -40 $OUT/t8.log
T end
