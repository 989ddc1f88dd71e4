# Session 46, call 3: the resident build's graph launches by parts. Variant
# headers (.b/v/<name>, made by mkvar.py from main's, each wrong on purpose):
# nocheck (at-home reads and writes before their bounds and type checks),
# nodirty (at-home writes without the dirty mark), plainst (writes as plain
# stores, not __stcg), all three. Carry [".b/v"].
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
R=$PWD
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
cd /tmp
S=$R/bench/results-h100/session46/scripts/timeline.py
timeout 100 python3 -P $S in_memory
for v in main nocheck nodirty plainst all; do
  if [ $v = main ]; then unset DREAM_INC; else export DREAM_INC=$R/.b/v/$v; fi
  TAG="$v " timeout 100 python3 -P $S dream warm,warm,cold
done
