# session 35 call 5: O6's entry load kept in L1 (L1::evict_last, variant "el") against main; graphs per launch and PolyBench x = 0
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
(cd /tmp && python3 $OLDPWD/.b35/variant.py el) || exit 1
for v in main el main el; do
  T "graph $v"; if [ $v = main ]; then P=; else P=/tmp/v_$v; fi
  SYSTEMS=dream RUNS=1 PYTHONPATH=$P timeout 90 python3 -P .b35/prof.py $v 22 bfs,cc
done
for v in main el; do
  T "poly $v"; if [ $v = main ]; then P=; else P=/tmp/v_$v; fi
  PYTHONPATH=$P timeout 100 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 2 --systems dream --out $OUT/poly_$v > /tmp/p.log 2>&1; echo rc=$?; grep "dream" $OUT/poly_$v/polybench.md
done
T end
