# Session 49, call 1 on wip/range-hint (prepared in session 48, not yet run):
# the O6 hint as a range of elements (abi.h dream_hint {lo, span, base,
# dirty}): an access in it is one compare and the load. Carry [".b/main"]:
#   rm -rf .b/main && mkdir -p .b/main && git archive main dream pyproject.toml CMakeLists.txt README.md | tar -x -C .b/main
# mkmut.py's two wrong header sets must each fail their tests; then cold BFS
# and CC launch by launch, cold PolyBench at x = 0 and 8 (the general build is
# O5 alone now) against main, alternating. c2_range.sh runs the GPU suites.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/mainpkg .b/main > /tmp/m.log 2>&1 || { tail -30 /tmp/m.log; exit 1; }
T installed
R=$PWD; S=$R/bench/results-h100/session49/scripts; P=$R/bench/results-h100/session45/scripts
I=$R/bench/results-h100/session47/scripts/inc_pytest.py
timeout 120 python3 -P -m pytest --timeout 60 -q -p no:cacheprovider -rf tests/test_abi.py tests/test_core_gpu.py \
  -k "mirror or past_the_end or whole_at_home or no_eviction or at_home or out_of_bounds" > $OUT/gpu_tests.txt 2>&1; echo rc=$?
tail -3 $OUT/gpu_tests.txt
python3 -P $S/mkmut.py /tmp/muts
for m in "span_unclipped:past_the_end and direct" "write_unmarked:(no_eviction_writes or whole_at_home) and direct and not nvme"; do
  echo "mutant ${m%%:*} (must fail):"
  (cd /tmp && timeout 60 python3 -P $I /tmp/muts/${m%%:*} --timeout 40 -q -p no:cacheprovider $R/tests/test_core_gpu.py -k "${m#*:}" 2>&1 | tail -1)
done
T "tests, mutants"
for v in main range main range; do
  unset PYTHONPATH; if [ $v = main ]; then export PYTHONPATH=/tmp/mainpkg; fi
  (cd /tmp && timeout 90 python3 -P $P/perlaunch.py 0 2>&1 | grep -E "^cap|cc_hook|bfs_step" | sed "s/^/$v /")
  T "$v graphs"
done
for v in main range; do
  unset PYTHONPATH; if [ $v = main ]; then export PYTHONPATH=/tmp/mainpkg; fi
  (cd /tmp && timeout 200 python3 -P -m dream bench polybench --backend direct --oversubscription 0,8 --runs 3 --systems dream \
     --out /tmp/p_$v > /tmp/p_$v.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p_$v/polybench.md | cut -c1-120)
  T "$v polybench"
done
