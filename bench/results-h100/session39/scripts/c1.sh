# session 39 call 1: the review fix's test, pytest -m gpu not nvme, serial + ncu of the landed lone path
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
timeout 120 python3 -P -m pytest -m gpu -k "homes_and_one_without or racing or at_home" --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py > $OUT/new_test.txt 2>&1; echo pytest rc=$?; tail -3 $OUT/new_test.txt
T new_test
(cd /tmp && timeout 60 python3 -P $OLDPWD/.b39/serial.py head 2>&1 | tail -3)
(cd /tmp && timeout 100 /usr/local/cuda/bin/ncu --section SourceCounters -k regex:'^serial$' --launch-skip 1 --launch-count 1 -o /tmp/prof python3 -P $OLDPWD/.b39/serial.py prof 2>&1 | tail -2; timeout 60 /usr/local/cuda/bin/ncu -i /tmp/prof.ncu-rep --page source --csv --print-source sass > $OUT/serial_sass.csv 2>/dev/null)
python3 .b39/ncu_summary.py $OUT/serial_sass.csv > $OUT/ncu_summary.txt 2>&1; head -40 $OUT/ncu_summary.txt
T ncu
timeout 300 python3 -P -m pytest -m gpu -k "not nvme" --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_not_nvme.txt 2>&1; echo pytest rc=$?
tail -6 $OUT/gpu_not_nvme.txt
T not_nvme
