# session 33 call 6: the GPU tests not run in call 4 (with the review's fixes), and call 5's two nvme failures
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T nvme-fail
mapfile -t ids < .b33/nvme_fail_ids.txt
timeout 70 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf "${ids[@]}" > $OUT/gpu_nvme_fail.txt 2>&1; echo rc=$?; grep -a "Stats\|assert\|passed\|failed" $OUT/gpu_nvme_fail.txt | head -12
T rest
mapfile -t ids < .b33/rest_ids.txt
timeout 190 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf "${ids[@]}" > $OUT/gpu_rest2.txt 2>&1; echo rc=$?; tail -12 $OUT/gpu_rest2.txt
T end
