# session 39 call 2: v1 (claim before the backing loads, release publish without fence.sc) and c (v1 + the lone attempt inline at O6's miss) against main: serial, O6 tests, cold PolyBench/vadd, cold graphs
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
(cd /tmp && python3 $OLDPWD/.b39/mkvar.py main && python3 $OLDPWD/.b39/mkvar.py v1) || exit 1
T installed
P() { case $1 in c) echo "";; *) echo /tmp/v_$1;; esac; }
for v in c v1 main c v1 main; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 60 python3 -P $OLDPWD/.b39/serial.py $v 2>&1 | tail -1)
done
T serial
timeout 150 python3 -P -m pytest -m gpu -k "homes_and_one_without or racing or at_home or no_evict or scattered or span" --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py > $OUT/tests_c.txt 2>&1; echo pytest rc=$?; tail -3 $OUT/tests_c.txt
T tests
for v in c v1 main; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 150 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 3 --systems dream --out /tmp/p_$v > /tmp/p.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p_$v/polybench.md)
  T poly_$v
done
for v in c v1 main; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 90 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 2 --oversubscription 0 --systems dream --out /tmp/g_$v > /tmp/g.log 2>&1; echo "$v rc=$?"; grep '| dream\|| bfs\|| cc' /tmp/g_$v/graph.md)
  T graph_$v
done
