# session 24 final: the transfer figures on the final tree, then the GPU suites (direct, softrnic, nvme)
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
T bench; timeout 70 python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --nvme-pages 4KiB --nvme-dir /tmp --runs 3 --backend "direct,softrnic,nvme:cache=warm" --out /tmp/tr > /tmp/tr.log 2>&1; cp /tmp/tr/transfer.json $OUT/transfer.json; grep -i error /tmp/tr.log | tail -3
P="python3 -P -m pytest -m gpu --timeout 100 -q -p no:cacheprovider -rf"
T direct; timeout 105 $P -k "not softrnic and not nvme" > $OUT/t_direct.log 2>&1; tail -1 $OUT/t_direct.log
T soft; timeout 150 $P -k softrnic > $OUT/t_soft.log 2>&1; tail -1 $OUT/t_soft.log
T nvme; timeout 255 $P -k nvme > $OUT/t_nvme.log 2>&1; tail -1 $OUT/t_nvme.log
T end
