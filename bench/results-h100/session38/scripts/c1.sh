# session 38 call 1: the strengthened racing test (never run on a GPU) with the loads before the claim; serial, cold PolyBench and cold graphs against main
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
(cd /tmp && python3 $OLDPWD/.b38/mkmain.py) || exit 1
T installed
(cd tests && timeout 150 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf -k "racing or no_eviction or at_home" test_core_gpu.py 2>&1 | tail -8)
T tests
for v in new main new main; do
  if [ $v = main ]; then P=/tmp/v_main; else P=; fi
  (cd /tmp && PYTHONPATH=$P timeout 60 python3 -P $OLDPWD/.b38/serial.py $v 2>&1 | tail -2)
done
T serial
for v in new main; do
  if [ $v = main ]; then P=/tmp/v_main; else P=; fi
  (cd /tmp && PYTHONPATH=$P timeout 100 python3 -P -m dream bench polybench --kernels atax,mvt,bicg --backend direct --oversubscription 0 --runs 3 --systems dream --out /tmp/p_$v > /tmp/p.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p_$v/polybench.md)
  T poly_$v
done
for v in new main; do
  if [ $v = main ]; then P=/tmp/v_main; else P=; fi
  (cd /tmp && PYTHONPATH=$P timeout 90 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 2 --oversubscription 0 --systems dream --out /tmp/g_$v > /tmp/g.log 2>&1; echo "$v rc=$?"; grep '| dream\|| bfs\|| cc' /tmp/g_$v/graph.md)
  T graph_$v
done
