# session 32 call 2: serial fault by register cap (ablation); graph table; GPU suite (not nvme) on the review fixes
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T cap
for cap in 128 168 255 128; do timeout 40 python3 -P .b32/serial_cap.py $cap; done
T graph
timeout 150 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 3 --oversubscription 0 --systems dream,in_memory,uvm --out $OUT/graph > /tmp/g.log 2>&1; echo rc=$?; cat $OUT/graph/graph.md
T tests
timeout 330 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf -k "not nvme" > $OUT/gpu_rest.txt 2>&1; echo rc=$?; tail -5 $OUT/gpu_rest.txt
T end
