# Session 51, call 7: the stack test on each kind of resident kernel (nvme's
# copy kernel, the soft RNIC's copy kernel with its host engine, its GPU engine)
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
timeout 200 python3 -P -m pytest --timeout 150 -q -p no:cacheprovider -rf -m gpu tests/test_core_gpu.py \
  -k "more_stack" 2>&1 | tail -40 | cut -c1-400
T "stack tests"
