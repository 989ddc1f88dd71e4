# session 35 call 8 (branch whole-at-home): arrays made whole during a launch (fault.cuh O8) against main's headers
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
SITE=$(cd /tmp && python3 -c "import dream,os;print(os.path.dirname(os.path.dirname(dream.__file__)))")
mkdir -p /tmp/base && cp -r $SITE/dream /tmp/base/ && cp .b35/base8/fault.cuh .b35/base8/abi.h /tmp/base/dream/cuda/include/dream/
T tests
timeout 200 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py -k "whole or no_eviction or at_home" 2>&1 | tail -4
for v in whole base; do
  T "hook $v"; if [ $v = base ]; then P=/tmp/base; else P=; fi
  for m in E G; do PYTHONPATH=$P timeout 60 python3 -P .b35/hook2.py $m 3; done
done
for v in whole base; do
  T "graph $v"; if [ $v = base ]; then P=/tmp/base; else P=; fi
  SYSTEMS=dream RUNS=1 PYTHONPATH=$P timeout 90 python3 -P .b35/prof.py $v 22 bfs,cc
done
for v in whole base; do
  T "poly $v"; if [ $v = base ]; then P=/tmp/base; else P=; fi
  PYTHONPATH=$P timeout 100 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 1 --systems dream --out $OUT/poly_$v > /tmp/p.log 2>&1; echo rc=$?; grep "dream" $OUT/poly_$v/polybench.md
done
T end
