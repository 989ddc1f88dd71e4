# session 40 call 5: the final tree (backing in dream_ptr_abi, dream_early_ok inline) against head (432783e):
# serial, cold PolyBench, cold and warm graphs; then pytest -m gpu -k nvme
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/v_head .b40/head_src > /tmp/i2.log 2>&1 || { tail -30 /tmp/i2.log; exit 1; }
T installed
P() { case $1 in final) echo "";; *) echo /tmp/v_$1;; esac; }
for v in final head final head final head; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 60 python3 -P $OLDPWD/.b40/serial.py $v 2>&1 | tail -1)
done
T serial
for v in final head; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 100 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 3 --systems dream --out /tmp/p_$v > /tmp/p.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p_$v/polybench.md)
  T poly_$v
done
for v in final head; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 90 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 2 --oversubscription 0 --systems dream --out /tmp/g_$v > /tmp/g.log 2>&1; echo "$v rc=$?"; grep '| bfs\|| cc' /tmp/g_$v/graph.md)
  T graph_$v
done
timeout 300 python3 -P -m pytest -m gpu -k nvme --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_nvme.txt 2>&1; echo pytest rc=$?
tail -4 $OUT/gpu_nvme.txt
T nvme
