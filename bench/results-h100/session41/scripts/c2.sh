# session 41 call 2: the new test against a mutant (the early start's home owner stored, not CASed), then
# pytest -m gpu -k "not nvme" on the tree
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/v_mut .b41/mut_src > /tmp/i2.log 2>&1 || { tail -30 /tmp/i2.log; exit 1; }
T installed
for r in 1 2 3; do
  PYTHONPATH=/tmp/v_mut timeout 100 python3 -P -m pytest -m gpu -k "homes_taken and direct" --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py > $OUT/mutant_$r.txt 2>&1; echo "mutant run $r rc=$?"; grep -E "passed|failed|assert" $OUT/mutant_$r.txt | head -4
done
T mutant
timeout 100 python3 -P -m pytest -m gpu -k "homes_taken" --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py > $OUT/new_test.txt 2>&1; echo "new test rc=$?"; tail -2 $OUT/new_test.txt
T new_test
timeout 330 python3 -P -m pytest -m gpu -k "not nvme" --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_not_nvme.txt 2>&1; echo pytest not-nvme rc=$?
tail -4 $OUT/gpu_not_nvme.txt
T not_nvme
