# session 31 call 4: WQE fetch through the copy kernel + new copier vs main: serial, transfer 4K/64K incl. copy kernel at 64K
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
INST() { python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }; }
for v in new main; do
  T "install $v"; cp .b31/dma_$v.h dream/cuda/dma.h; INST
  INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
  cp .b31/copier_$v.cuh $INC/copier.cuh
  for o in '{}' '{"queue_memory":"split"}' '{}'; do timeout 60 python3 -P .b31/serial_soft.py "$o" 1000 2>&1 | tail -1; done
  timeout 200 python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --runs 2 --backend softrnic,softrnic:dma=copy-kernel --out $OUT/transfer_$v > /tmp/t_$v.log 2>&1; echo rc=$?; cut -d, -f3-8 $OUT/transfer_$v/transfer.csv; grep -a "bulk\|serial" /tmp/t_$v.log | tr '\r' '\n' | grep -a "bulk\|serial" | tail -4
done
cp .b31/dma_new.h dream/cuda/dma.h
T end
