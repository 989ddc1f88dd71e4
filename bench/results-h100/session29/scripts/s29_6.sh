# session 29: home_pte with a fence at the switch (home_pf) against base: CC/BFS cold, vector add cold, ATAX cold
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
D=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
cp $D/fault.cuh /tmp/fault.orig
for v in base home_pf home_pte base home_pf; do
  if [ $v = base ]; then cp /tmp/fault.orig $D/fault.cuh; else cp .b29/fault_$v.cuh $D/fault.cuh; fi
  T $v
  timeout 200 python3 -P .b29/gdiag.py cc,bfs 2 cold 2>&1 | grep -v build | cut -c1-60
  timeout 60 python3 -P .b29/vdiag.py $((1<<28)) "vadd 256,vgs 1056x256" 1 2>&1 | grep -v resident | cut -c1-60
  timeout 100 python3 -P -m dream bench polybench --kernels atax,bicg --n 16384 --backend direct --runs 1 --oversubscription 0 --systems dream --out /tmp/atax_$v > /tmp/a.log 2>&1; grep "| dream" /tmp/atax_$v/polybench.md | cut -c1-60
done
cp /tmp/fault.orig $D/fault.cuh
T end
