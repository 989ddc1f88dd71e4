# wip/s43-review, call 1 of 2 (run with carry [".b/main"], after
#   rm -rf .b/main && mkdir -p .b/main && git archive main dream pyproject.toml CMakeLists.txt README.md | tar -x -C .b/main
# and "/.b/" in .git/info/exclude): this branch installed, main beside it in /tmp/mainpkg;
# serial 4 KiB fault A/B in one call, the 8 GiB transfer, pytest -m gpu -k "not nvme"
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/mainpkg .b/main > /tmp/m.log 2>&1 || { tail -30 /tmp/m.log; exit 1; }
T installed
S=$PWD/bench/results-h100/session42/scripts/serial.py
for r in 1 2; do
  (cd /tmp && PYTHONPATH=/tmp/mainpkg timeout 60 python3 -P $S main softrnic,softrnic:engine=host)
  (cd /tmp && timeout 60 python3 -P $S wip softrnic,softrnic:engine=host)
done
T serial
(cd /tmp && timeout 240 python3 -P -m dream bench transfer --data 8GiB --page 4KiB,64KiB --backend softrnic,softrnic:engine=host --runs 1 --out $OUT/t8 > /tmp/t8.log 2>&1; echo rc=$?)
rm -f $OUT/t8/*.jsonl
tr '\r' '\n' < /tmp/t8.log | grep -E "baseline|GB/s|latency|rror" | grep -v "point/s" | tail -20
T transfer
timeout 290 python3 -P -m pytest -m gpu -k "not nvme" --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_notnvme.txt 2>&1; echo rc=$?
tail -4 $OUT/gpu_notnvme.txt
T notnvme
