# session 39 call 4: the final tree (c0): serial and cold PolyBench against main, then pytest -m gpu -k nvme
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
(cd /tmp && python3 $OLDPWD/.b39/mkvar.py main) || exit 1
T installed
P() { case $1 in new) echo "";; *) echo /tmp/v_$1;; esac; }
for v in new main new main; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 60 python3 -P $OLDPWD/.b39/serial.py $v 2>&1 | tail -1)
done
T serial
for v in new main new main; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 150 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 7 --systems dream --out /tmp/p_$v > /tmp/p.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p_$v/polybench.md)
  T poly_$v
done
timeout 330 python3 -P -m pytest -m gpu -k nvme --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_nvme.txt 2>&1; echo pytest rc=$?
tail -6 $OUT/gpu_nvme.txt
T nvme
