# Session 50, call 4 on main (7459ae4): the nvme tests of the changed
# paths, then the table (graphs and PolyBench against in-memory and
# UVM first touch, x = 0 and 8) as session 49's call 3 ran it.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
timeout 120 python3 -P -m pytest --timeout 60 -q -p no:cacheprovider -rf -m gpu tests/test_core_gpu.py \
  -k "nvme and (resident or out_of_bounds or past_the_end or element_type or shared_by_a_block or at_home)" 2>&1 | tail -3
T "nvme tests"
(cd /tmp && timeout 200 python3 -P -m dream bench graph --graph kron --scale 22 --kernels bfs,cc --layouts csr --backend direct \
  --oversubscription 0 --runs 3 --systems in_memory,uvm,dream --out $OUT/g > $OUT/g.log 2>&1; echo rc=$?; cat $OUT/g/graph.md)
T graph
(cd /tmp && timeout 170 python3 -P -m dream bench polybench --backend direct --oversubscription 0,8 --runs 3 \
  --systems in_memory,uvm,dream --out $OUT/p > $OUT/p.log 2>&1; echo rc=$?; cat $OUT/p/polybench.md)
T polybench
