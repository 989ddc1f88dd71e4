# session 32 call 7: CC's first hook: resident build, general build at home, general build through entries; with the miss paths made unreachable
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
for v in main nomiss main nomiss; do
  for m in R G E; do cp .b32/v/fault_main.cuh $INC/fault.cuh; HEADER=.b32/v/fault_$v.cuh VARIANT=$v timeout 60 python3 -P .b32/hook2.py $m 3 2>&1 | tail -2; done
done
cp .b32/v/fault_main.cuh $INC/fault.cuh
T end
