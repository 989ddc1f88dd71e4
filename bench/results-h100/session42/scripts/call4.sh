# session 42 call 4: the copy kernel's batch timing in the serial fault, with the per-batch fence at system scope,
# GPU scope, and none (diagnostic only)
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
cd /tmp
for v in diag_hdr diag_g diag_n; do python3 -P $OLDPWD/.b42/mkvar.py /tmp/v_$v $OLDPWD/.b42/$v queue.cuh copier.cuh; done
for v in diag_hdr diag_g diag_n diag_hdr; do PYTHONPATH=/tmp/v_$v timeout 100 python3 -P $OLDPWD/.b42/serial_diag.py $v softrnic:queue_memory=split,softrnic; done
T diag
