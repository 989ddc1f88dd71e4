# session 41 call 7: the final tree (84087fe): the serial fault against a zero-copy load; pytest -m gpu on direct
# (what the session's device time left allows)
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
(cd /tmp && timeout 30 python3 -P $OLDPWD/.b41/ratio.py 2>&1 | tail -4)
T ratio
timeout 120 python3 -P -m pytest -m gpu -k "direct and not nvme" --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_direct.txt 2>&1; echo pytest direct rc=$?
tail -3 $OUT/gpu_direct.txt
T direct
