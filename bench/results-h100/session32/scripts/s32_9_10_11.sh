# session 32 call 11: CC first hook, an inline miss path (claim, post, spin) in place of the call (ablation)
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
for r in 1 2; do for v in main nomiss spin; do
  for m in G E; do cp .b32/v/fault_main.cuh $INC/fault.cuh; HEADER=.b32/v/fault_$v.cuh VARIANT=$v timeout 60 python3 -P .b32/hook2.py $m 3 2>&1 | tail -2; done
done; done
cp .b32/v/fault_main.cuh $INC/fault.cuh
T end
