# session 31 call 3: copier with flat descriptor reads, merged batches, fences only where copied: serial + transfer vs main
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
T serial
for v in main new acqrel main new acqrel; do cp .b31/copier_$v.cuh $INC/copier.cuh; echo "-- $v"; for o in '{}' '{"queue_memory":"split"}'; do timeout 60 python3 -P .b31/serial_soft.py "$o" 1000 2>&1 | tail -1; done; done
T transfer
for v in main new acqrel; do cp .b31/copier_$v.cuh $INC/copier.cuh; echo "-- $v"; timeout 150 python3 -P -m dream bench transfer --data 256MiB --page 4KiB --runs 2 --backend softrnic,nvme:cache=warm --out $OUT/transfer_$v > /tmp/t_$v.log 2>&1; echo rc=$?; cut -d, -f1-8 $OUT/transfer_$v/transfer.csv | head -20; done
cp .b31/copier_new.cuh $INC/copier.cuh
T end
