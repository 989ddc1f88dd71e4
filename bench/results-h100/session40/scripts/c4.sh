# session 40 call 4: H (the lone fault's claim and home lock issued together, the owner read under the PCIe
# loads) against new: serial; O6 tests on H; cold PolyBench and graphs
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
(cd /tmp && python3 $OLDPWD/.b40/mkvar.py H H_hdr) || exit 1
T installed
P() { case $1 in new) echo "";; *) echo /tmp/v_$1;; esac; }
for v in new H new H new H; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 60 python3 -P $OLDPWD/.b40/serial.py $v 2>&1 | tail -1)
done
T serial
(cd /tmp && PYTHONPATH=/tmp/v_H timeout 150 python3 -P -m pytest -m gpu -k "homes_and_one_without or racing or at_home or no_evict or scattered or span or ahead or sequence" --timeout 60 -q -p no:cacheprovider -rf $OLDPWD/tests/test_core_gpu.py > $OUT/tests_H.txt 2>&1; echo pytest H rc=$?; tail -2 $OUT/tests_H.txt)
T tests
for v in H new; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 100 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 3 --systems dream --out /tmp/p_$v > /tmp/p.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p_$v/polybench.md)
  T poly_$v
done
for v in H new; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 90 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 2 --oversubscription 0 --systems dream --out /tmp/g_$v > /tmp/g.log 2>&1; echo "$v rc=$?"; grep '| bfs\|| cc' /tmp/g_$v/graph.md)
  T graph_$v
done
