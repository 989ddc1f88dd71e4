# session 28: DREAM_SEQUENCE_TICKS 256 / 1024 / 4096 (vector add, grid-stride vector add, transfer gather and serial); then the nvme half of the suite
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
H=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream/fault.cuh
cp $H /tmp/fault.orig
for v in 256 1024 4096; do
cp /tmp/fault.orig $H; sed -i "s/#define DREAM_SEQUENCE_TICKS 256/#define DREAM_SEQUENCE_TICKS $v/" $H; grep "define DREAM_SEQUENCE_TICKS" $H
timeout 100 python3 -P .b28/vdiag.py $((1<<28)) "vadd 256,vgs 1056x256" 2 2>&1 | grep -v resident | tee -a $OUT/ticks.txt
timeout 80 python3 -P -m dream bench transfer --data 256MiB --page 4KiB --runs 3 --backend direct --out $OUT/tr_$v > /tmp/t.log 2>&1; cut -d, -f3-8 $OUT/tr_$v/transfer.csv | grep direct; grep -a serial /tmp/t.log | tr '\r' '\n' | grep serial
done
cp /tmp/fault.orig $H
T nvme; timeout 400 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf -k "nvme" > $OUT/t_nvme.log 2>&1; echo rc=$?; tail -8 $OUT/t_nvme.log
T end
