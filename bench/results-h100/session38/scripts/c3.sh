# session 38 call 3: lone faults in their own path (dream_fault_lone) against main: serial, ncu instruction counts, tests, cold PolyBench/vadd and graphs
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
(cd tests && timeout 200 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf -k "racing or no_eviction or at_home or scattered or span or atomic or stress" test_core_gpu.py 2>&1 | tail -6)
T tests
(cd /tmp && timeout 100 /usr/local/cuda/bin/ncu --section SourceCounters -k regex:'^serial$' --launch-skip 1 --launch-count 1 -o /tmp/prof python3 -P $OLDPWD/.b38/serial.py prof 2>&1 | tail -2; timeout 60 /usr/local/cuda/bin/ncu -i /tmp/prof.ncu-rep --page source --csv --print-source sass > $OUT/serial_sass.csv 2>/dev/null)
T prof
for v in new main; do
  if [ $v = main ]; then P=/tmp/v_main; else P=; fi
  (cd /tmp && PYTHONPATH=$P timeout 150 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 3 --systems dream --out /tmp/p_$v > /tmp/p.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p_$v/polybench.md)
  T poly_$v
done
for v in new main; do
  if [ $v = main ]; then P=/tmp/v_main; else P=; fi
  (cd /tmp && PYTHONPATH=$P timeout 90 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 2 --oversubscription 0 --systems dream --out /tmp/g_$v > /tmp/g.log 2>&1; echo "$v rc=$?"; grep '| dream\|| bfs\|| cc' /tmp/g_$v/graph.md)
  T graph_$v
done
