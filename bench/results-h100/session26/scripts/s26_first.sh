# session 26, first call (prepared in session 25): copier2 (copy kernel vs copy engines under a busy kernel,
# round trip), then wip/fetch-unwind's nvme suite and CPU-side engine tests. Run from a checkout of wip/fetch-unwind
# (git checkout wip/fetch-unwind) with carry [".base"]; copier2.cu comes from main's results folder.
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -O2 -arch=sm_90 -o /tmp/copier2 bench/results-h100/session25/copier2.cu -lcuda 2>&1 | tail -3
T copier2; timeout 80 /tmp/copier2 200000 70 tcr 2>&1 | tee $OUT/copier2_h100.txt
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
T nvme; timeout 260 python3 -P -m pytest -m gpu --timeout 100 -q -p no:cacheprovider -rf -k nvme > $OUT/t_nvme.log 2>&1; tail -2 $OUT/t_nvme.log
T end
