# session 40 call 6: the final tree (new: backing in dream_ptr_abi, the sequence look under the claim) against
# A2 (backing only, the look before the claim) and head (432783e): serial; then pytest -m gpu -k "not nvme"
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/v_head .b40/head_src > /tmp/i2.log 2>&1 || { tail -30 /tmp/i2.log; exit 1; }
(cd /tmp && python3 $OLDPWD/.b40/mkvar.py A2 A2_hdr) || exit 1
T installed
P() { case $1 in final) echo "";; *) echo /tmp/v_$1;; esac; }
for v in final A2 head final A2 head final A2 head; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 60 python3 -P $OLDPWD/.b40/serial.py $v 2>&1 | tail -1)
done
T serial
timeout 360 python3 -P -m pytest -m gpu -k "not nvme" --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_not_nvme.txt 2>&1; echo pytest rc=$?
tail -4 $OUT/gpu_not_nvme.txt
T not_nvme
