# session 35 call 2: the general build compiled for launches that evict nothing (NE=1, DREAM_NO_EVICT_KERNEL), and with O6's entry load not volatile (pure), against main's general build; graphs per launch, PolyBench x=0, serial fault
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
SITE=$(cd /tmp && python3 -c "import dream,os;print(os.path.dirname(os.path.dirname(dream.__file__)))")
mkdir -p /tmp/pure && cp -r $SITE/dream /tmp/pure/ && python3 -c "
p='/tmp/pure/dream/cuda/include/dream/sync.cuh'; s=open(p).read()
old='asm volatile(\"ld.relaxed.cta.global.u64 %0, [%1];\" : \"=l\"(v) : \"l\"(p));'
assert old in s; open(p,'w').write(s.replace(old, old.replace('asm volatile', 'asm')))"
run() { v=$1; shift; case $v in main) NE=0 P= ;; ne) NE=1 P= ;; nepure) NE=1 P=/tmp/pure ;; esac; NE=$NE PYTHONPATH=$P "$@"; }
for v in main ne nepure main ne nepure; do
  T "graph $v"
  SYSTEMS=dream RUNS=1 run $v timeout 90 python3 -P .b35/ne.py .b35/prof.py $v 22 bfs,cc
done
T "graph in_memory"
SYSTEMS=in_memory RUNS=1 timeout 90 python3 -P .b35/prof.py in_memory 22 bfs,cc
for v in main ne nepure; do
  T "poly $v"
  run $v timeout 100 python3 -P .b35/ne.py -m dream bench polybench --backend direct --oversubscription 0 --runs 2 --systems dream --out $OUT/poly_$v > /tmp/p.log 2>&1; echo rc=$?; grep "dream" $OUT/poly_$v/polybench.md; tail -1 /tmp/p.log
  run $v timeout 60 python3 -P .b35/ne.py .b35/serial.py $v
done
T end
