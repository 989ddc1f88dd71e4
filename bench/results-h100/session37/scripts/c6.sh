# session 37 call 6: cold PolyBench (x = 0), the landed code against main, alternating; and the serial fault
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
(cd /tmp && python3 $OLDPWD/.b37/mkmain.py) || exit 1
T installed
for v in new main new main; do
  if [ $v = main ]; then P=/tmp/v_main; else P=; fi
  (cd /tmp && PYTHONPATH=$P timeout 100 python3 -P -m dream bench polybench --kernels atax,mvt,bicg --backend direct --oversubscription 0 --runs 5 --systems dream --out /tmp/p_$v > /tmp/p.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p_$v/polybench.md)
  T $v
done
(cd /tmp && timeout 60 python3 -P $OLDPWD/.b37/serial.py new 2>&1 | tail -1; PYTHONPATH=/tmp/v_main timeout 60 python3 -P $OLDPWD/.b37/serial.py main 2>&1 | tail -1)
T end
