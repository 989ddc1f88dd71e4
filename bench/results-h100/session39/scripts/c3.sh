# session 39 call 3: c0 (the lone attempt inline at O6's miss; the fence and claim order as main) against c (with v1) and main; the stepped serial kernel; ncu of c0
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
(cd /tmp && python3 $OLDPWD/.b39/mkvar.py main && python3 $OLDPWD/.b39/mkvar.py c) || exit 1
T installed
P() { case $1 in c0) echo "";; *) echo /tmp/v_$1;; esac; }
for v in c0 c main c0 c main; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 60 python3 -P $OLDPWD/.b39/serial2.py $v 2>&1 | tail -2)
done
T serial
(cd /tmp && timeout 100 /usr/local/cuda/bin/ncu --section SourceCounters -k regex:'^serial$' --launch-skip 1 --launch-count 1 -o /tmp/prof python3 -P $OLDPWD/.b39/serial.py prof 2>&1 | tail -2; timeout 60 /usr/local/cuda/bin/ncu -i /tmp/prof.ncu-rep --page source --csv --print-source sass > $OUT/serial_sass.csv 2>/dev/null)
python3 .b39/ncu_summary.py $OUT/serial_sass.csv > $OUT/ncu_summary.txt 2>&1; head -30 $OUT/ncu_summary.txt
T ncu
for v in c0 main c0 main; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 150 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 3 --systems dream --out /tmp/p_$v > /tmp/p.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p_$v/polybench.md)
  T poly_$v
done
