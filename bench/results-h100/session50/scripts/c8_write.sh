# Session 50, call 8 on main (a32e733): the resident build's writes without a
# branch (carry [".b/wr"]: main's headers where a write that fails its check
# runs on a scratch word of the module, its dirty mark too, and records the
# failure after; variants/resident_write.diff). The tests of failed accesses
# on those headers, then warm graphs launch by launch and PolyBench's
# resident column, alternating main and wr.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
R=$PWD; I=$R/bench/results-h100/session47/scripts/inc_pytest.py; S=$R/bench/results-h100/session49/scripts/capne.py
(cd /tmp && timeout 200 python3 -P $I $R/.b/wr/include --timeout 60 -q -p no:cacheprovider -rf $R/tests/test_core_gpu.py \
  -k "not nvme and (resident or out_of_bounds or past_the_end or element_type or shared_by or dtypes_at_4x or read_modify_write or min_max or write)" 2>&1 | tail -3)
T tests
export LABELS="cold warm warm"
for v in main wr main wr; do
  unset DREAM_INC; if [ $v = wr ]; then export DREAM_INC=$R/.b/wr/include; fi
  (cd /tmp && timeout 80 python3 -P $S 0 graphs 2>&1 | grep "warm" | sed "s/^/$v /")
  T "$v graphs"
done
for v in main wr; do
  unset DREAM_INC; if [ $v = wr ]; then export DREAM_INC=$R/.b/wr/include; fi
  (cd /tmp && timeout 120 python3 -P $S 0 polybench --backend direct --oversubscription 0 --runs 5 --systems dream \
     --out /tmp/p$v > /tmp/p$v.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p$v/polybench.md | cut -c1-120)
  T "$v polybench"
done
