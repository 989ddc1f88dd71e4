# session 42 call 3: where a softrnic serial fault's time goes now (diagnostic headers on this tree: A only)
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
cd /tmp
python3 -P $OLDPWD/.b42/mkvar.py /tmp/v_diag $OLDPWD/.b42/diag_hdr queue.cuh copier.cuh
PYTHONPATH=/tmp/v_diag timeout 100 python3 -P $OLDPWD/.b42/serial_diag.py diag softrnic,softrnic:queue_memory=split
timeout 100 python3 -P $OLDPWD/.b42/serial.py A softrnic,softrnic:queue_memory=split
T diag
