# session 30: the fault path reading rt's pointers once at its start (fault_pre.cuh) against main: serial fault
set -o pipefail; export PYTHONUNBUFFERED=1
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
cp $INC/fault.cuh .b30/fault_main.cuh
for v in main pre main pre; do cp .b30/fault_$v.cuh $INC/fault.cuh; timeout 60 python3 -P .b30/serial.py $v; done
cp .b30/fault_pre.cuh $INC/fault.cuh
timeout 100 python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --runs 3 --backend direct --out $OUT/transfer_pre > /tmp/t.log 2>&1; cut -d, -f4,6,7,8 $OUT/transfer_pre/transfer.csv; grep -a "serial" /tmp/t.log | tr '\r' '\n' | grep serial | tail -1
cp .b30/fault_main.cuh $INC/fault.cuh
timeout 100 python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --runs 3 --backend direct --out $OUT/transfer_main > /tmp/t.log 2>&1; cut -d, -f4,6,7,8 $OUT/transfer_main/transfer.csv; grep -a "serial" /tmp/t.log | tr '\r' '\n' | grep serial | tail -1
