# session 40 call 7: the final tree against noabi (the same fault path, the page's address through rt->arrays)
# and head (432783e): serial; then pytest -m gpu -k nvme
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/v_head .b40/head_src > /tmp/i2.log 2>&1 || { tail -30 /tmp/i2.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/v_noabi .b40/noabi_src > /tmp/i3.log 2>&1 || { tail -30 /tmp/i3.log; exit 1; }
T installed
P() { case $1 in final) echo "";; *) echo /tmp/v_$1;; esac; }
for v in final noabi head final noabi head final noabi head; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 60 python3 -P $OLDPWD/.b40/serial.py $v 2>&1 | tail -1)
done
T serial
timeout 420 python3 -P -m pytest -m gpu -k nvme --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_nvme.txt 2>&1; echo pytest rc=$?
tail -4 $OUT/gpu_nvme.txt
T nvme
