# session 34 call 1: served vs general in one call (graphs per launch, polybench, serial); server variants
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
SITE=$(cd /tmp && python3 -c "import dream,os;print(os.path.dirname(os.path.dirname(dream.__file__)))")
for v in noseq noahead; do mkdir -p /tmp/$v && cp -r $SITE/dream /tmp/$v/; done
sed -i 's/dream_ahead_stride(p, page, prev, ~0u)/dream_ahead_stride(p, page, prev, 0u)/' /tmp/noseq/dream/cuda/include/dream/serve.cuh
sed -i 's/lane == 0 ? dream_ahead_stride(p, page, prev, ~0u) : 0/0/' /tmp/noahead/dream/cuda/include/dream/serve.cuh
grep -c "prev, 0u)" /tmp/noseq/dream/cuda/include/dream/serve.cuh; grep -c "dream_ahead_stride" /tmp/noahead/dream/cuda/include/dream/serve.cuh
T serial
timeout 40 python3 -P .b34/serial.py served
timeout 40 python3 -P .b34/serial.py general
T graph
timeout 200 python3 -P .b34/prof.py base in_memory,served,general,served:132,served:528 22
T variants
PYTHONPATH=/tmp/noseq timeout 60 python3 -P .b34/prof.py noseq served 22
PYTHONPATH=/tmp/noahead timeout 60 python3 -P .b34/prof.py noahead served 22
T poly
timeout 80 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 2 --systems dream,in_memory,uvm --out $OUT/poly > /tmp/p.log 2>&1; echo rc=$?; cat $OUT/poly/polybench.md
timeout 60 python3 -P .b34/ab.py general bench polybench --backend direct --oversubscription 0 --runs 2 --systems dream --out $OUT/polyg > /tmp/p.log 2>&1; echo rc=$?; cat $OUT/polyg/polybench.md
T end
