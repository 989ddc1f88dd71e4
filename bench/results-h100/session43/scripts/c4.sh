# session 43 call 4: GPU-scope fences for a local engine + relaxed doorbell poll (this tree) against call 2's headers
# (prev); then pytest -m gpu -k "not nvme" on this tree (with the softrnic-gpuengine backend in the shared suite)
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD
(cd /tmp && python3 -P $R/.b43/mkvar.py /tmp/v_prev $R/.b43/prev queue.cuh rnic.cuh nvme.cuh softrnic_engine.cuh
for v in prev new prev new; do
  P=/tmp/v_$v; [ $v = new ] && P=
  PYTHONPATH=$P timeout 60 python3 -P $R/.b43/serial.py $v "softrnic:engine=gpu"
done)
T serial
timeout 420 python3 -P -m pytest -m gpu -k "not nvme" --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_notnvme.txt 2>&1; echo rc=$?
tail -15 $OUT/gpu_notnvme.txt
T pytest
