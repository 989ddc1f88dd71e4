# session 35 call 4: a serial fault with parts of the fault path removed (measurement only: variant.py)
exec > $OUT/log.txt 2>&1
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
cd /tmp; for v in noseq nocount nostate nohomecas noseq+nocount+nostate+nohomecas; do python3 $OLDPWD/.b35/variant.py $v >/dev/null || exit 1; done; cd $OLDPWD
for v in main noseq nocount nostate nohomecas noseq+nocount+nostate+nohomecas main; do
  if [ $v = main ]; then P=; else P=/tmp/v_$v; fi
  PYTHONPATH=$P timeout 60 python3 -P .b35/serial.py $v 2>&1 | tail -2
done
