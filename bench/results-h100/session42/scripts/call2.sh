# session 42 call 2: the copy kernel's looks in the serial fault (diagnostic copier.cuh on this tree); pytest -m gpu -k nvme
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
cd /tmp
python3 -P $OLDPWD/.b42/mkvar.py /tmp/v_diag $OLDPWD/.b42/diag_hdr copier.cuh
for r in 1 2; do PYTHONPATH=/tmp/v_diag timeout 100 python3 -P $OLDPWD/.b42/serial_diag.py diag softrnic,softrnic:queue_memory=split; done
T diag
cd $OLDPWD
timeout 330 python3 -P -m pytest -m gpu -k nvme --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/nvme.txt 2>&1; echo nvme rc=$?
tail -5 $OUT/nvme.txt
T nvme
