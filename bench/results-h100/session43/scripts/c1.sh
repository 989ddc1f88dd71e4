# session 43 call 1: wip/s42-polls (this tree, "polls") against main (e0880a1, its headers swapped in):
# serial fault alternating; cold graphs on softrnic; 8 GiB 4 KiB transfer on softrnic and split
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD
cd /tmp
python3 -P $R/.b43/mkvar.py /tmp/v_main $R/.b43/main_hdr fault.cuh nvme.cuh queue.cuh rnic.cuh
P() { case $1 in polls) echo "";; *) echo /tmp/v_$1;; esac; }
B="softrnic,softrnic:queue_memory=split"
for v in main polls main polls; do
  PYTHONPATH=$(P $v) timeout 60 python3 -P $R/.b43/serial.py $v $B
done
T serial
for v in main polls main polls; do
  PYTHONPATH=$(P $v) timeout 100 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend softrnic --runs 1 --oversubscription 0 --systems dream --out /tmp/g_$v > /tmp/g.log 2>&1; echo "$v rc=$?"; grep '| bfs\|| cc' /tmp/g_$v/graph.md; tail -2 /tmp/g.log | tr '\r' '\n' | tail -2
  T graph_$v
done
for v in main polls; do
  PYTHONPATH=$(P $v) timeout 150 python3 -P -m dream bench transfer --data 8GiB --page 4KiB --backend softrnic,softrnic:queue_memory=split --runs 1 --out /tmp/t_$v > /tmp/t_$v.log 2>&1; echo $v rc=$?
  tr '\r' '\n' < /tmp/t_$v.log | grep -E "softrnic|baseline" | grep -v "point/s" | tail -6
  T transfer_$v
done
