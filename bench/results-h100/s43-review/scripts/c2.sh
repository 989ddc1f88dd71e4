# wip/s43-review, call 2 of 2: the ten not-nvme tests call 1's 290 s cut (rest_ids.txt), then pytest -m gpu -k nvme
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
timeout 150 python3 -P -m pytest --timeout 60 -q -p no:cacheprovider -rf $(cat bench/results-h100/s43-review/scripts/rest_ids.txt) > $OUT/gpu_rest.txt 2>&1; echo rc=$?
tail -4 $OUT/gpu_rest.txt
T rest
timeout 400 python3 -P -m pytest -m gpu -k nvme --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_nvme.txt 2>&1; echo rc=$?
tail -4 $OUT/gpu_nvme.txt
T nvme
