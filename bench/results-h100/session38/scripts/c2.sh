# session 38 call 2: where a serial fault's warp stalls (ncu source counters, SASS), then pytest -m gpu not nvme on the pre-claim loads
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1); echo "ncu: $NCU"
if [ -n "$NCU" ]; then
  (cd /tmp && timeout 150 $NCU --section SourceCounters --section WarpStateStats -k regex:'^serial$' --launch-skip 1 --launch-count 1 -o /tmp/prof python3 -P $OLDPWD/.b38/serial.py prof 2>&1 | tail -5)
  timeout 60 $NCU -i /tmp/prof.ncu-rep --page source --csv --print-source sass > $OUT/serial_sass.csv 2>$OUT/ncu_err.txt; echo "rc=$? $(wc -l < $OUT/serial_sass.csv) lines"; head -c 600 $OUT/ncu_err.txt
  timeout 60 $NCU -i /tmp/prof.ncu-rep --page details --csv > $OUT/serial_details.csv 2>&1
fi
T prof
timeout 330 python3 -P -m pytest -m gpu -k "not nvme" --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_not_nvme.txt 2>&1; echo pytest rc=$?
tail -5 $OUT/gpu_not_nvme.txt
T end
