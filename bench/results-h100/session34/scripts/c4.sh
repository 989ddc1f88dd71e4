# session 34 call 4: the reverted code's GPU suite (not nvme); SASS of the graph kernels (raw, resident, general)
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name --format=csv,noheader
for c in raw res gen; do cuobjdump -sass .b34/cubin/$c.cubin > $OUT/$c.sass 2>&1; done; wc -l $OUT/*.sass
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T tests
timeout 380 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf -k "not nvme" > $OUT/gpu_rest.txt 2>&1; echo rc=$?; tail -8 $OUT/gpu_rest.txt
T end
