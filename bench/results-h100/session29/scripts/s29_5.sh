# session 29 call: an array completed at home during a launch (fault.cuh dream_no_evict_frame variants)
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
D=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
cp $D/fault.cuh /tmp/fault.orig
for v in base home_pte base home_pte; do
  if [ $v = base ]; then cp /tmp/fault.orig $D/fault.cuh; else cp .b29/fault_$v.cuh $D/fault.cuh; fi
  T $v
  timeout 200 python3 -P .b29/gdiag.py cc,bfs 2 cold 2>&1 | grep -v build


done
cp /tmp/fault.orig $D/fault.cuh
T end
