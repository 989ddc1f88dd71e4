# Session 50, call 2 (branch s50: main + wip/shared-ptr + the resident
# build's reads loaded before their check, one store per failure record).
# Carry [".b/main", ".b/rl2"]: .b/main as in c1.sh; .b/rl2/include: main's
# headers with the read loaded first and a record whose values are selected
# (a wrong type's as index | 1 << 63: measurement only, the host cannot
# decode it). The tests of failed accesses, then resident and cold graphs
# launch by launch and PolyBench at x = 0, alternating main, s50, rl2.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/mainpkg .b/main > /tmp/m.log 2>&1 || { tail -30 /tmp/m.log; exit 1; }
T installed
R=$PWD; P=$R/bench/results-h100/session45/scripts
timeout 200 python3 -P -m pytest --timeout 60 -q -p no:cacheprovider -rf tests/test_abi.py tests/test_errors.py tests/test_compile.py \
  tests/test_core_gpu.py -k "test_abi or test_errors or resident or out_of_bounds or past_the_end or element_type or shared_by_a_block or dtypes_at_4x or read_modify_write" 2>&1 | tail -3
T tests
run() {  # $1: main, s50 or rl2
  unset PYTHONPATH DREAM_INC
  if [ $1 = main ]; then export PYTHONPATH=/tmp/mainpkg; fi
  if [ $1 = rl2 ]; then export DREAM_INC=$R/.b/rl2/include; fi
}
for v in main s50 rl2 main s50 rl2; do
  run $v
  (cd /tmp && timeout 90 python3 -P $P/perlaunch.py 0 2>&1 | grep -E "^cap|cc_hook|bfs_step" | sed "s/^/$v /" | sed "s/faults .* wait/wait/")
  T "$v graphs"
done
for v in main s50 rl2; do
  run $v
  (cd /tmp && timeout 120 python3 -P -c "import os,sys,dream.runtime.compile as C; from pathlib import Path
if os.environ.get('DREAM_INC'): C.INCLUDE_DIR = Path(os.environ['DREAM_INC'])
from dream.bench.cli import main; sys.exit(main(sys.argv[1:]))" polybench --backend direct --oversubscription 0 --runs 5 --systems dream \
     --out /tmp/p_$v > /tmp/p_$v.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p_$v/polybench.md | cut -c1-120)
  T "$v polybench"
done
