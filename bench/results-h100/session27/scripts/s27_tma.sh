# session 27: lone lanes read through the TMA (direct): direct's GPU tests, the graph diag, the issue-10 graph table
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
T tests; timeout 300 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf -x --durations=5 -k "direct" > $OUT/t_direct.log 2>&1; echo rc=$?; tail -8 $OUT/t_direct.log
T diag; timeout 150 python3 -P .base/diag27.py 22 cc,bfs > $OUT/diag.txt 2>&1; grep -E "run|hook|step" $OUT/diag.txt | head -60
T graph; timeout 150 python3 -P -m dream bench graph --scale 22 --kernels bfs,cc --layouts csr --backend direct --runs 1 --oversubscription 0 --systems dream,in_memory,uvm --out $OUT/graph22 > $OUT/graph.log 2>&1; echo rc=$?; cat $OUT/graph22/*.md 2>/dev/null | head -20
T end
