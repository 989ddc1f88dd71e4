# session 34 call 2: served with slower polling (requesters 1 us, servers 0.5 us) against general, one call
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
SITE=$(cd /tmp && python3 -c "import dream,os;print(os.path.dirname(os.path.dirname(dream.__file__)))")
for v in poll pollsrv; do mkdir -p /tmp/$v && cp -r $SITE/dream /tmp/$v/ && python3 .b34/variant.py /tmp/$v $v; done
T graph
timeout 100 python3 -P .b34/prof.py base served,general 22
for v in poll pollsrv; do PYTHONPATH=/tmp/$v timeout 60 python3 -P .b34/prof.py $v served 22; done
T poly
for v in poll pollsrv; do PYTHONPATH=/tmp/$v timeout 60 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 2 --systems dream --out $OUT/poly$v > /tmp/p.log 2>&1; echo $v rc=$?; grep dream $OUT/poly$v/polybench.md; done
timeout 60 python3 -P .b34/ab.py general bench polybench --backend direct --oversubscription 0 --runs 2 --systems dream --out $OUT/polyg > /tmp/p.log 2>&1; echo general rc=$?; grep dream $OUT/polyg/polybench.md
T serial
for v in poll pollsrv; do PYTHONPATH=/tmp/$v timeout 40 python3 -P .b34/serial.py served; done
T end
