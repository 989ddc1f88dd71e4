# session 33 call 5: the GPU tests not run in call 4 (and its failures, fixed), and the nvme tests of the served build
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T rest
timeout 185 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf $(cat .b33/rest_ids.txt) > $OUT/gpu_rest2.txt 2>&1; echo rc=$?; tail -8 $OUT/gpu_rest2.txt
T nvme
timeout 175 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf $(cat .b33/nvme_ids.txt) > $OUT/gpu_nvme.txt 2>&1; echo rc=$?; tail -8 $OUT/gpu_nvme.txt
T end
