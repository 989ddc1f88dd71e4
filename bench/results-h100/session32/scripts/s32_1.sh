# session 32 call 1: serial fault A/B (fault.cuh variants), transfer direct A/B, graph dream-only A/B
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
T serial
for r in 1 2; do for v in main ab pf pf_nocount; do cp .b32/v/fault_$v.cuh $INC/fault.cuh; echo -n "$v: "; timeout 60 python3 -P .b32/serial.py direct; done; done
T transfer
for v in main pf; do cp .b32/v/fault_$v.cuh $INC/fault.cuh; timeout 100 python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --runs 2 --backend direct --out $OUT/transfer_$v > /tmp/t.log 2>&1; echo "$v rc=$?"; grep -i "stream\|gather\|serial" /tmp/t.log | head -12; done
T graph
for v in main pf; do cp .b32/v/fault_$v.cuh $INC/fault.cuh; timeout 100 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 3 --oversubscription 0 --systems dream --out $OUT/graph_$v > /tmp/g.log 2>&1; echo "$v rc=$?"; cat $OUT/graph_$v/graph.md | grep -v "^$" | tail -4; done
T end
