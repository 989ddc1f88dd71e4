# Session 50, call 3 (branch s50: main + wip/shared-ptr + the resident
# build's reads loaded before their check, written as rl2 of call 2 was,
# with a record the host decodes). Carry [".b/main"]. The tests of failed
# accesses; resident and cold graphs launch by launch and PolyBench at x = 0,
# alternating main and s50; then pytest -m gpu -k "not nvme".
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
for v in main s50 main s50; do
  unset PYTHONPATH; if [ $v = main ]; then export PYTHONPATH=/tmp/mainpkg; fi
  (cd /tmp && timeout 90 python3 -P $P/perlaunch.py 0 2>&1 | grep -E "^cap|cc_hook|bfs_step" | sed "s/^/$v /" | sed "s/faults .* wait/wait/")
  T "$v graphs"
done
for v in main s50; do
  unset PYTHONPATH; if [ $v = main ]; then export PYTHONPATH=/tmp/mainpkg; fi
  (cd /tmp && timeout 120 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 5 --systems dream \
     --out /tmp/p_$v > /tmp/p_$v.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p_$v/polybench.md | cut -c1-120)
  T "$v polybench"
done
unset PYTHONPATH
timeout 280 python3 -P -m pytest --timeout 120 -q -p no:cacheprovider -rf -m gpu -k "not nvme" tests 2>&1 | tail -5
T "gpu tests"
