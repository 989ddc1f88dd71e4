# session 40 call 8: the final tree: build, the serial fault against a zero-copy load, pytest -m gpu (both halves)
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
(cd /tmp && timeout 60 python3 -P $OLDPWD/.b40/ratio.py 2>&1 | tail -4)
T ratio
timeout 290 python3 -P -m pytest -m gpu -k "not nvme" --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_not_nvme.txt 2>&1; echo pytest not-nvme rc=$?
tail -3 $OUT/gpu_not_nvme.txt
T not_nvme
timeout 230 python3 -P -m pytest -m gpu -k nvme --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_nvme.txt 2>&1; echo pytest nvme rc=$?
tail -3 $OUT/gpu_nvme.txt
T nvme
