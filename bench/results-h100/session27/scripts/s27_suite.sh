# session 27: one half of the GPU suite ($1: nvme | rest); rest adds the issue-10 tables and the transfer benchmark
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
if [ "$1" = nvme ]; then sel="nvme"; else sel="not nvme"; fi
T "gpu -k '$sel'"; timeout 420 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf --durations=6 -k "$sel" > $OUT/t_$1.log 2>&1; echo rc=$?; tail -12 $OUT/t_$1.log
if [ "$1" = rest ]; then
T transfer; timeout 60 python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --runs 3 --backend direct --out $OUT/transfer_direct > $OUT/transfer.log 2>&1; echo rc=$?; grep -E "baseline bulk|page|serial" $OUT/transfer.log
T lone; timeout 60 python3 -P .base/lone_dream.py > $OUT/lone_dream.txt 2>&1; cat $OUT/lone_dream.txt
fi
T end
