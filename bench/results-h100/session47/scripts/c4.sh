# Session 47, call 4: two variants of wip/whole (call 3's tree; the WHOLE test
# first in the access compiles to the same SASS) against main: B (.b/vB: the
# array's count read only at misses on pages p % 8 == 0, fewer loads where an
# array never becomes whole), C (.b/vC: the count tested before the entry, the
# miss itself going home once whole, as call 2 did through rt->arrays).
# Carry [".b/main", ".b/mut", ".b/vB", ".b/vC"].
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/mainpkg .b/main > /tmp/m.log 2>&1 || { tail -30 /tmp/m.log; exit 1; }
T installed
R=$PWD; S=$R/bench/results-h100/session47/scripts; P=$R/bench/results-h100/session45/scripts/perlaunch.py
timeout 100 python3 -P -m pytest --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py \
  -k "direct and not nvme and (whole_at_home or no_eviction or homes or at_home or random_reads or span or racing)" > $OUT/gpu_tests.txt 2>&1; echo rc=$?
tail -2 $OUT/gpu_tests.txt
(cd /tmp && timeout 60 python3 -P $S/inc_pytest.py $R/.b/mut/include --timeout 40 -q -p no:cacheprovider -rf \
  $R/tests/test_core_gpu.py -k "whole_at_home and direct and not nvme" 2>&1 | tail -2)
(cd /tmp && timeout 60 python3 -P $S/inc_pytest.py $R/.b/vB/include --timeout 40 -q -p no:cacheprovider -rf \
  $R/tests/test_core_gpu.py -k "whole_at_home and direct and not nvme" 2>&1 | tail -2)
T tests
for v in main vB vC main vB vC; do
  unset PYTHONPATH DREAM_INC
  if [ $v = main ]; then export PYTHONPATH=/tmp/mainpkg; fi
  if [ $v != main ]; then export DREAM_INC=$R/.b/$v/include; fi
  (cd /tmp && timeout 90 python3 -P $P 0 2>&1 | grep -E "^cap|cc_hook|bfs_step" | sed "s/^/$v /")
  T "$v graphs"
done
