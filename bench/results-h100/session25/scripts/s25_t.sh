# session 25: issue 10's tables on the landed code (device code = 3f723e7)
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
T built
timeout 130 python3 -P -m dream bench polybench --kernels atax,mvt,bicg,vadd --n 16384 --backend direct --runs 1 --oversubscription 0,8 --systems dream,in_memory,uvm --out /tmp/pb > /tmp/pb.log 2>&1; tail -3 /tmp/pb.log; cp /tmp/pb/polybench.md /tmp/pb/polybench.json $OUT/ 2>/dev/null
T poly
timeout 130 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 1 --oversubscription 0 --systems dream,in_memory,uvm --out /tmp/gr > /tmp/gr.log 2>&1; tail -3 /tmp/gr.log; cp /tmp/gr/graph.md /tmp/gr/graph.json $OUT/ 2>/dev/null
T graph
