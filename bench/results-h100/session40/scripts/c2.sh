# session 40 call 2: S (new + the page before's stamp read at its home with the claim) against new and head:
# serial; cold PolyBench S/new; PolyBench at x = 8 for b8/head/new; ncu of S's serial fault
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/v_head .b40/head_src > /tmp/i2.log 2>&1 || { tail -30 /tmp/i2.log; exit 1; }
(cd /tmp && python3 $OLDPWD/.b40/mkvar.py S S_hdr && python3 $OLDPWD/.b40/mkvar.py b8 b8_hdr /tmp/v_head) || exit 1
T installed
P() { case $1 in new) echo "";; *) echo /tmp/v_$1;; esac; }
for v in S new head S new head; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 60 python3 -P $OLDPWD/.b40/serial.py $v 2>&1 | tail -1)
done
T serial
(cd /tmp && PYTHONPATH=/tmp/v_S timeout 100 python3 -P -m pytest -m gpu -k "racing or at_home or no_evict or ahead or sequence" --timeout 60 -q -p no:cacheprovider -rf $OLDPWD/tests/test_core_gpu.py > $OUT/tests_S.txt 2>&1; echo pytest S rc=$?; tail -2 $OUT/tests_S.txt)
T tests
for v in S; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 100 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 3 --systems dream --out /tmp/p_$v > /tmp/p.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p_$v/polybench.md)
  T poly_$v
done
for v in b8 head new; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 120 python3 -P -m dream bench polybench --backend direct --oversubscription 8 --runs 3 --systems dream --out /tmp/p8_$v > /tmp/p.log 2>&1; echo "x8 $v rc=$?"; grep '| dream' /tmp/p8_$v/polybench.md)
  T poly8_$v
done
(cd /tmp && PYTHONPATH=/tmp/v_S timeout 120 /usr/local/cuda/bin/ncu --section SourceCounters -k regex:'^serial$' --launch-skip 1 --launch-count 1 -o /tmp/prof python3 -P $OLDPWD/.b40/serial.py S > /tmp/ncu.log 2>&1; echo ncu rc=$?; /usr/local/cuda/bin/ncu -i /tmp/prof.ncu-rep --page source --csv --print-source sass > /tmp/prof.csv 2>/dev/null; python3 $OLDPWD/.b40/ncu_summary.py /tmp/prof.csv > $OUT/ncu_S.txt; head -40 $OUT/ncu_S.txt)
T ncu
