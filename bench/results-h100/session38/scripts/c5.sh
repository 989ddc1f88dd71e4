# session 38 call 5: lone faults (the stride from the caller, a lost claim's entry to the general path) against main: serial, cold PolyBench and vector add, the racing tests
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
(cd /tmp && python3 $OLDPWD/.b38/mkmain.py) || exit 1
T installed
for v in new main new main; do
  if [ $v = main ]; then P=/tmp/v_main; else P=; fi
  (cd /tmp && PYTHONPATH=$P timeout 60 python3 -P $OLDPWD/.b38/serial.py $v 2>&1 | tail -1)
done
T serial
for v in new main new; do
  if [ $v = main ]; then P=/tmp/v_main; else P=; fi
  (cd /tmp && PYTHONPATH=$P timeout 150 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 3 --systems dream --out /tmp/p_$v > /tmp/p.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p_$v/polybench.md)
  T poly_$v
done
for v in new main; do
  if [ $v = main ]; then P=/tmp/v_main; else P=; fi
  (cd /tmp && PYTHONPATH=$P timeout 90 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 2 --oversubscription 0 --systems dream --out /tmp/g_$v > /tmp/g.log 2>&1; echo "$v rc=$?"; grep '| bfs\|| cc' /tmp/g_$v/graph.md)
  T graph_$v
done
(cd tests && timeout 100 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf -k "racing or at_home" test_core_gpu.py 2>&1 | tail -3)
T end
