# session 43 call 6: the final tree (GPU engine the softrnic default, review fixes): serial fault on both engines and
# direct; pytest -m gpu -k "not nvme"
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD
(cd /tmp && for r in 1 2; do timeout 60 python3 -P $R/.b43/serial.py final "softrnic,softrnic:engine=host,direct"; done)
T serial
timeout 480 python3 -P -m pytest -m gpu -k "not nvme" --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_notnvme.txt 2>&1; echo rc=$?
tail -15 $OUT/gpu_notnvme.txt
T pytest
