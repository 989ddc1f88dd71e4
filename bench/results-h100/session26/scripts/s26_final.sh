# session 26, final: the GPU suite on the landed code, in two halves ($1: nvme | rest)
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
if [ "$1" = nvme ]; then sel="nvme"; elif [ "$1" = copier ]; then sel="copier_gpu"; else sel="not nvme"; fi
T "gpu -k '$sel'"; timeout 540 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf --durations=12 -k "$sel" > $OUT/t_$1.log 2>&1; echo rc=$?; tail -25 $OUT/t_$1.log
T end
