# session 42 call 8: the final tree against HEAD (2244706: its headers swapped into this install):
# serial fault alternating, the 1 GiB 4 KiB transfer benchmark on softrnic; pytest -m gpu -k nvme
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD
cd /tmp
python3 -P $R/.b42/mkvar.py /tmp/v_head $R/.b42/head_hdr queue.cuh rnic.cuh nvme.cuh sync.cuh copier.cuh fault.cuh
B="softrnic,softrnic:queue_memory=split,direct"
for r in 1 2; do
  PYTHONPATH=/tmp/v_head timeout 60 python3 -P $R/.b42/serial.py head $B
  timeout 60 python3 -P $R/.b42/serial.py new $B
  T "round $r"
done
for v in head new; do
  if [ $v = new ]; then P=; else P=/tmp/v_$v; fi
  PYTHONPATH=$P timeout 150 python3 -P -m dream bench transfer --data 1GiB --page 4KiB --backend softrnic --runs 2 --out $OUT/transfer_$v > $OUT/transfer_$v.txt 2>&1; echo transfer $v rc=$?
  grep -E "softrnic |serial|bulk|batched" $OUT/transfer_$v.txt | sed 's/.*\r//' | tail -4
  T "transfer $v"
done
cd $R
timeout 330 python3 -P -m pytest -m gpu -k nvme --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_nvme.txt 2>&1; echo nvme rc=$?
tail -6 $OUT/gpu_nvme.txt
T nvme
