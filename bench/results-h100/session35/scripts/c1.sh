# session 35 call 1 (branch wip/read-only-ptr): read-only arguments against main's headers, graphs per launch, PolyBench x=0, serial fault; the read-only tests
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
SITE=$(cd /tmp && python3 -c "import dream,os;print(os.path.dirname(os.path.dirname(dream.__file__)))")
mkdir -p /tmp/base && cp -r $SITE/dream /tmp/base/ && cp .b35/base/fault.cuh .b35/base/ptr.cuh /tmp/base/dream/cuda/include/dream/ && cp .b35/base/graph.py .b35/base/polybench.py /tmp/base/dream/bench/
T tests
timeout 90 python3 -P -m pytest -m gpu --timeout 40 -q -p no:cacheprovider -rf tests/test_core_gpu.py -k "read_only" 2>&1 | tail -3
for v in ro base ro base; do
  T "graph $v"
  if [ $v = base ]; then P=/tmp/base; else P=; fi
  RUNS=1 PYTHONPATH=$P timeout 90 python3 -P .b35/prof.py $v 22 bfs,cc
done
for v in ro base; do
  T "poly $v"
  if [ $v = base ]; then P=/tmp/base; else P=; fi
  PYTHONPATH=$P timeout 100 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 2 --systems dream,in_memory --out $OUT/poly_$v > /tmp/p.log 2>&1; echo rc=$?; cat $OUT/poly_$v/polybench.md; tail -2 /tmp/p.log
done
T serial
timeout 60 python3 -P .b35/serial.py ro
T end
