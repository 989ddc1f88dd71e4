# session 29 call 1: lone-lane waiters back off (fault.cuh variants) -> BFS/CC cold per launch, vector add cold
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
H=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream/fault.cuh
cp $H /tmp/fault.orig
for v in base bo1024_l1 bo4096_l1 bo1024_l0 base; do
  if [ $v = base ]; then cp /tmp/fault.orig $H; else cp .b29/fault_$v.cuh $H; fi
  T $v
  timeout 200 python3 -P .b29/gdiag.py cc,bfs 1 2>&1 | tail -5
  timeout 60 python3 -P .b29/vdiag.py $((1<<28)) "vadd 256" 1 2>&1 | grep -v resident | tail -2
done
cp /tmp/fault.orig $H
T end
