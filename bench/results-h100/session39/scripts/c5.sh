# session 39 call 5: the final tree: pytest -m gpu -k "not nvme"
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
timeout 300 python3 -P -m pytest -m gpu -k "not nvme" --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_not_nvme.txt 2>&1; echo pytest rc=$?
tail -6 $OUT/gpu_not_nvme.txt
T not_nvme
