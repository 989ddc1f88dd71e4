# session 34 call 3: the resident build's reads through the read-only cache (ldg), its dirty marks (nodirty)
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
SITE=$(cd /tmp && python3 -c "import dream,os;print(os.path.dirname(os.path.dirname(dream.__file__)))")
for v in ldg nodirty ldgnodirty; do mkdir -p /tmp/$v && cp -r $SITE/dream /tmp/$v/ && python3 .b34/variant.py /tmp/$v $v; done
T graph
timeout 80 python3 -P .b34/prof.py base served,in_memory 22
for v in ldg nodirty ldgnodirty; do PYTHONPATH=/tmp/$v timeout 60 python3 -P .b34/prof.py $v served 22; done
T poly
timeout 80 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 2 --systems dream,in_memory,uvm --out $OUT/poly > /tmp/p.log 2>&1; echo base rc=$?; grep "dream\|in_memory\|uvm" $OUT/poly/polybench.md
for v in ldg ldgnodirty; do PYTHONPATH=/tmp/$v timeout 60 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 2 --systems dream --out $OUT/poly$v > /tmp/p.log 2>&1; echo $v rc=$?; grep dream $OUT/poly$v/polybench.md; done
T end
