# Session 50, call 10: the resident build's reads of a signed 32-bit index in
# 32 bits, as landed (call 9's variant written with one helper,
# dream_home_read). Carry [".b/head"]: git archive e91a8ac, installed beside.
# The read tests at home (both index types) on every backend; warm graphs
# launch by launch and PolyBench's resident column against e91a8ac,
# alternating; then pytest -m gpu -k "not nvme".
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation --target /tmp/headpkg .b/head > /tmp/m.log 2>&1 || { tail -30 /tmp/m.log; exit 1; }
T installed
R=$PWD; S=$R/bench/results-h100/session49/scripts/capne.py
timeout 100 python3 -P -m pytest --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py -k "read_at_home or element_type or past_the_end" 2>&1 | tail -2
T tests
export LABELS="cold warm warm"
for v in head new head new; do
  unset PYTHONPATH; if [ $v = head ]; then export PYTHONPATH=/tmp/headpkg; fi
  (cd /tmp && timeout 80 python3 -P $S 0 graphs 2>&1 | grep "warm" | sed "s/^/$v /")
  T "$v graphs"
done
for v in head new; do
  unset PYTHONPATH; if [ $v = head ]; then export PYTHONPATH=/tmp/headpkg; fi
  (cd /tmp && timeout 120 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 5 --systems dream \
     --out /tmp/p$v > /tmp/p$v.log 2>&1; echo "$v rc=$?"; grep '| dream' /tmp/p$v/polybench.md | cut -c1-120)
  T "$v polybench"
done
unset PYTHONPATH
timeout 290 python3 -P -m pytest --timeout 120 -q -p no:cacheprovider -rf -m gpu -k "not nvme" tests 2>&1 | tail -4
T "gpu tests"
