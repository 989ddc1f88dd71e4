# session 41 call 3: the new test (race made: y's warps start one after another) on every backend and against
# the mutant; pytest -m gpu -k nvme; the serial fault against a zero-copy load; PolyBench at x = 8 new/head
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/v_mut .b41/mut_src > /tmp/i2.log 2>&1 || { tail -30 /tmp/i2.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/v_head .b41/head_src > /tmp/i3.log 2>&1 || { tail -30 /tmp/i3.log; exit 1; }
T installed
timeout 100 python3 -P -m pytest -m gpu -k "homes_taken" --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py > $OUT/new_test.txt 2>&1; echo "new test rc=$?"; tail -2 $OUT/new_test.txt
for r in 1 2; do
  PYTHONPATH=/tmp/v_mut timeout 100 python3 -P -m pytest -m gpu -k "homes_taken and direct" --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py > $OUT/mutant_$r.txt 2>&1; echo "mutant run $r rc=$?"; grep -E "^E " $OUT/mutant_$r.txt | head -3; tail -1 $OUT/mutant_$r.txt
done
T tests
(cd /tmp && timeout 60 python3 -P $OLDPWD/.b41/ratio.py 2>&1 | tail -4)
T ratio
timeout 260 python3 -P -m pytest -m gpu -k nvme --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_nvme.txt 2>&1; echo pytest nvme rc=$?
tail -3 $OUT/gpu_nvme.txt
T nvme
P() { case $1 in new) echo "";; *) echo /tmp/v_$1;; esac; }
for v in new head; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 100 python3 -P -m dream bench polybench --backend direct --oversubscription 8 --runs 3 --systems dream --out /tmp/p8_$v > /tmp/p.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p8_$v/polybench.md)
  T poly8_$v
done
