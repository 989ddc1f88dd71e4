# session 41 call 1: new (O6 frames taken by the owner's CAS; the early start without the home's lock) against
# head (649e7a3): serial; O6 tests on new; cold PolyBench and graphs new/head
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/v_head .b41/head_src > /tmp/i2.log 2>&1 || { tail -30 /tmp/i2.log; exit 1; }
T installed
P() { case $1 in new) echo "";; *) echo /tmp/v_$1;; esac; }
for v in new head new head new head; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 60 python3 -P $OLDPWD/.b41/serial.py $v 2>&1 | tail -2)
done
T serial
timeout 150 python3 -P -m pytest -m gpu -k "homes_and_one_without or racing or at_home or no_evict or scattered or span or ahead or sequence or home" --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py tests/test_abi.py > $OUT/tests_new.txt 2>&1; echo pytest rc=$?; tail -3 $OUT/tests_new.txt
T tests
for v in new head new head; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 150 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 3 --systems dream --out /tmp/p_$v > /tmp/p.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p_$v/polybench.md)
  T poly_$v
done
for v in new head; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 90 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 2 --oversubscription 0 --systems dream --out /tmp/g_$v > /tmp/g.log 2>&1; echo "$v rc=$?"; grep '| bfs\|| cc' /tmp/g_$v/graph.md)
  T graph_$v
done
