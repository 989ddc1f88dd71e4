# Session 50, call 1 (branch s50 = main + wip/shared-ptr, its resident build
# byte-identical to main's). Carry [".b/main", ".b/pf"]:
#   .b/main: git archive main dream pyproject.toml CMakeLists.txt README.md
#   .b/pf/include: main's headers with L2 bulk prefetches in direct's copies
# 1. the shared-dream_ptr test on every backend (and on main's headers, where
#    it should fail); 2. capne.py: main and pf headers at 128 and 64 registers:
#    serial fault, cold vector add and BICG, cold graphs; 3. PolyBench at x = 8
#    (the general build, whose code the branch changes) against main.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/mainpkg .b/main > /tmp/m.log 2>&1 || { tail -30 /tmp/m.log; exit 1; }
T installed
R=$PWD; S=$R/bench/results-h100/session49/scripts/capne.py; I=$R/bench/results-h100/session47/scripts/inc_pytest.py
timeout 150 python3 -P -m pytest --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py -k "shared_by_a_block" 2>&1 | tail -3
echo "on main's headers (expected to fail):"
(cd /tmp && timeout 90 python3 -P $I $R/.b/main/dream/cuda/include --timeout 60 -q -p no:cacheprovider $R/tests/test_core_gpu.py -k "shared_by_a_block and direct" 2>&1 | tail -1)
T tests
for v in main:0 pf:0 pf:64 main:64; do
  h=${v%:*}; c=${v#*:}; if [ $h = pf ]; then export DREAM_INC=$R/.b/pf/include; else unset DREAM_INC; fi
  (cd /tmp && timeout 60 python3 -P $S $c serial 2>&1 | tail -2 | sed "s/^/$h /")
  (cd /tmp && timeout 100 python3 -P $S $c polybench --backend direct --oversubscription 0 --runs 3 --systems dream --kernels vadd,bicg \
     --out /tmp/p$h$c > /tmp/p$h$c.log 2>&1; echo "$h cap $c rc=$?"; grep '| dream' /tmp/p$h$c/polybench.md | cut -c1-60)
  T "$v serial, polybench"
done
export LABELS="cold cold"
for v in pf:64 main:64 main:0 pf:0; do
  h=${v%:*}; c=${v#*:}; if [ $h = pf ]; then export DREAM_INC=$R/.b/pf/include; else unset DREAM_INC; fi
  (cd /tmp && timeout 80 python3 -P $S $c graphs 2>&1 | grep "^cap" | sed "s/^/$h /")
  T "$v graphs"
done
unset DREAM_INC
for v in main shared; do
  unset PYTHONPATH; if [ $v = main ]; then export PYTHONPATH=/tmp/mainpkg; fi
  (cd /tmp && timeout 100 python3 -P -m dream bench polybench --backend direct --oversubscription 8 --runs 3 --systems dream --kernels atax,vadd \
     --out /tmp/p8_$v > /tmp/p8_$v.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p8_$v/polybench.md | cut -c1-60)
  T "$v polybench x = 8"
done
