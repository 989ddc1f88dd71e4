# Session 51, call 2: the resident build's reads select their address (a
# zero where the check fails) and record a failure with a store whose values
# do not depend on the check (no branch), against main (b27add5, .b/main).
# The resident failure tests on every backend but nvme; warm graphs launch by
# launch and PolyBench's resident column, alternating.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/mainpkg .b/main > /tmp/m.log 2>&1 || { tail -30 /tmp/m.log; exit 1; }
T installed
R=$PWD; S=$R/bench/results-h100/session49/scripts/capne.py
timeout 150 python3 -P -m pytest --timeout 60 -q -p no:cacheprovider -rf -m gpu tests/test_core_gpu.py \
  -k "not nvme and (resident or out_of_bounds or past_the_end or element_type or at_home or shared_by)" 2>&1 | tail -2
T tests
export LABELS="cold warm warm"
for v in main new main new; do
  unset PYTHONPATH; if [ $v = main ]; then export PYTHONPATH=/tmp/mainpkg; fi
  (cd /tmp && timeout 80 python3 -P $S 0 graphs 2>&1 | grep "warm" | sed "s/^/$v /")
  T "$v graphs"
done
for v in main new; do
  unset PYTHONPATH; if [ $v = main ]; then export PYTHONPATH=/tmp/mainpkg; fi
  (cd /tmp && timeout 120 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 5 --systems in_memory,dream \
     --out /tmp/p$v > /tmp/p$v.log 2>&1; echo "$v rc=$?"; grep '| ' /tmp/p$v/polybench.md | cut -c1-150)
  T "$v polybench"
done
