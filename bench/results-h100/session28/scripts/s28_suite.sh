# session 28: the whole GPU suite on the final code, both halves in one call
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
git log --oneline -1
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
T rest; timeout 285 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf -k "not nvme" > $OUT/t_rest.log 2>&1; echo rc=$?; tail -4 $OUT/t_rest.log
T nvme; timeout 285 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf -k "nvme" > $OUT/t_nvme.log 2>&1; echo rc=$?; tail -4 $OUT/t_nvme.log
T end
