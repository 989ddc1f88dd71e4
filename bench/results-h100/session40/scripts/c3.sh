# session 40 call 3: C (the lone fault's pages/bytes/faults counted in the fill once its home is locked) and
# D (no counters: diagnostic only) against new: serial; cold PolyBench C
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
(cd /tmp && python3 $OLDPWD/.b40/mkvar.py C C_hdr && python3 $OLDPWD/.b40/mkvar.py D D_hdr) || exit 1
T installed
P() { case $1 in new) echo "";; *) echo /tmp/v_$1;; esac; }
for v in new C D new C D new C D; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 60 python3 -P $OLDPWD/.b40/serial.py $v 2>&1 | tail -1)
done
T serial
for v in C new; do
  (cd /tmp && PYTHONPATH=$(P $v) timeout 100 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 3 --systems dream --out /tmp/p_$v > /tmp/p.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p_$v/polybench.md)
  T poly_$v
done
