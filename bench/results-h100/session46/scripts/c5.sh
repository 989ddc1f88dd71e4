# Session 46, call 5: warm BFS and CC launch by launch (the second warm run
# counts), main's headers (.b/main) against this tree (reads at home loaded
# before their check), .b/v/asm (this tree, the failure record stored by
# inline assembly without a memory clobber) and .b/v/nocheck (no check at
# home at all: wrong on purpose); then resident vector add, main and this tree.
# Carry [".b/main", ".b/v"].
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
R=$PWD
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
cd /tmp
S=$R/bench/results-h100/session46/scripts/timeline.py
for v in main lf asm nocheck; do
  case $v in main) export DREAM_INC=$R/.b/main/dream/cuda/include;; lf) unset DREAM_INC;; *) export DREAM_INC=$R/.b/v/$v;; esac
  TAG="$v " timeout 100 python3 -P $S dream warm,warm | grep -v "blocks by"
done
T timeline
C=$R/bench/results-h100/session45/scripts/capped.py
for v in main lf main lf; do
  if [ $v = main ]; then export DREAM_INC=$R/.b/main/dream/cuda/include; else unset DREAM_INC; fi
  timeout 60 python3 -P $C 0 polybench --kernels vadd --backend direct --runs 5 --oversubscription 0 \
    --systems dream,in_memory --out /tmp/p$v > /tmp/p$v.log 2>&1 || tail -5 /tmp/p$v.log
  grep -E "^\| vadd" /tmp/p$v/polybench.md | sed "s/^/$v /"
done
T vadd
