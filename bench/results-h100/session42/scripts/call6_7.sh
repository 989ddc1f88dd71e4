# session 42 calls 6 and 7: serial fault A+C (HEAD fault.cuh) against A+C+L (the queue backends' lone fill), alternating;
# pytest -m gpu -k "not nvme"
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD
cd /tmp
python3 -P $R/.b42/mkvar.py /tmp/v_ac $R/.b42/ac_hdr fault.cuh
B="softrnic,softrnic:queue_memory=split,direct,nvme"
for r in 1 2; do
  PYTHONPATH=/tmp/v_ac timeout 60 python3 -P $R/.b42/serial.py ac $B
  timeout 60 python3 -P $R/.b42/serial.py acl $B
  T "round $r"
done
cd $R
timeout 330 python3 -P -m pytest -m gpu -k "not nvme" --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_not_nvme.txt 2>&1; echo not-nvme rc=$?
tail -8 $OUT/gpu_not_nvme.txt
T suite
