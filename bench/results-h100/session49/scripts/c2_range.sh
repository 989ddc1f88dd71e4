# Session 49, call 2 on wip/range-hint (prepared in session 48): the whole
# `pytest -m gpu -k "not nvme"` (about 250 s on an H200), then the nvme tests
# of the access paths the change touches.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
timeout 330 python3 -P -m pytest -m gpu -k "not nvme" --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_not_nvme.txt 2>&1; echo rc=$?
tail -4 $OUT/gpu_not_nvme.txt
T "gpu not nvme"
timeout 150 python3 -P -m pytest -m gpu -k "nvme and (no_eviction or at_home or whole_at_home or past_the_end or out_of_bounds or vadd_oversubscription or random)" \
  --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py > $OUT/gpu_nvme.txt 2>&1; echo rc=$?
tail -3 $OUT/gpu_nvme.txt
T "gpu nvme subset"
