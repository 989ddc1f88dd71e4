# session 37 call 2: the early start against main (serial fault, cold PolyBench and vector add), then pytest -m gpu not nvme
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
(cd /tmp && python3 $OLDPWD/.b37/mkmain.py) || exit 1
T installed
for v in new main new main; do
  if [ $v = main ]; then P=/tmp/v_main; else P=; fi
  (cd /tmp && PYTHONPATH=$P timeout 90 python3 -P $OLDPWD/.b37/serial.py $v 2>&1 | tail -3)
done
T serial
for v in new main; do
  if [ $v = main ]; then P=/tmp/v_main; else P=; fi
  (cd /tmp && PYTHONPATH=$P timeout 150 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 3 --systems dream --out $OUT/poly_$v > $OUT/poly_$v.log 2>&1; echo rc=$?; cat $OUT/poly_$v/polybench.md; rm -f $OUT/poly_$v/*.png $OUT/poly_$v/*.jsonl)
done
T poly
timeout 420 python3 -P -m pytest -m gpu -k "not nvme" --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_not_nvme.txt 2>&1; echo pytest rc=$?
tail -15 $OUT/gpu_not_nvme.txt
T end
