# softrnic and nvme GPU suites on the tree (engine changes), then the O5-hint A/B (header swaps)
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
P="python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf"
T soft; timeout 170 $P -k softrnic > $OUT/t_soft.log 2>&1; tail -1 $OUT/t_soft.log
T nvme; timeout 250 $P -k nvme > $OUT/t_nvme.log 2>&1; tail -1 $OUT/t_nvme.log
I=$(cd /tmp && python3 -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
for v in cur hint cur hint; do
  T $v; rm -rf $I; cp -r .base/inc_$v $I
  timeout 40 python3 -P bench/results-h100/session22/atax_split.py $v 2>&1 | grep -v Warn
done 2>&1 | tee $OUT/o5_ab.txt
for v in cur hint; do
  T w16-$v; rm -rf $I; cp -r .base/inc_$v $I
  timeout 40 python3 -P bench/results-h100/session21/w16.py direct,softrnic 64 65536 2>&1 | grep -v Warn
done 2>&1 | tee -a $OUT/o5_ab.txt
rm -rf $I; cp -r .base/inc_cur $I
T end
