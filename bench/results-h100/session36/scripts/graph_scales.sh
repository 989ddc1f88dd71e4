# session 36 calls 4 and 5: cold graphs against UVM first touch by scale (direct, x = 0); call 4 ran scales 22-24 (170 s each at most), call 5 scale 25 (480 s)
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
for s in 22 23 24; do
  T "scale $s"
  timeout 170 python3 -P -m dream bench graph --scale $s --kernels bfs,cc --layouts csr --backend direct --runs 2 --oversubscription 0 --systems dream,in_memory,uvm --out $OUT/graph$s > $OUT/graph$s.log 2>&1; echo rc=$?
  cat $OUT/graph$s/graph.md 2>/dev/null
done
T end
