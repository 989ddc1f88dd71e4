# session 38 call 7: the lone fault tried at the top of dream_access_pinned (no wrapper) against main: serial, cold vector add and PolyBench
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
(cd /tmp && python3 $OLDPWD/.b38/mkmain.py) || exit 1
T installed
for v in new main; do
  if [ $v = main ]; then P=/tmp/v_main; else P=; fi
  (cd /tmp && PYTHONPATH=$P timeout 60 python3 -P $OLDPWD/.b38/serial.py $v 2>&1 | tail -1)
done
T serial
for v in new main new main; do
  if [ $v = main ]; then P=/tmp/v_main; else P=; fi
  (cd /tmp && PYTHONPATH=$P timeout 150 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 3 --systems dream --out /tmp/p_$v > /tmp/p.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p_$v/polybench.md)
  T poly_$v
done
