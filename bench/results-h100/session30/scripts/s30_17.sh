# session 30: rt's pointers read once per fault (dream_ring) against main: serial fault, transfer; then the GPU suite without nvme
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
T serial
for v in main new main new; do cp .b30/${v}_set/*.cuh $INC/; timeout 60 python3 -P .b30/serial.py $v; done
cp .b30/new_set/*.cuh $INC/
T transfer
timeout 100 python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --runs 3 --backend direct --out $OUT/transfer_direct > /tmp/t.log 2>&1; cut -d, -f4,6,7,8 $OUT/transfer_direct/transfer.csv; grep -a "serial\|bulk_h2d" /tmp/t.log | tr '\r' '\n' | grep "serial\|bulk" | tail -2
T suite
timeout 400 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf -k "not nvme" > $OUT/gpu_rest.log 2>&1; echo rc=$?; tail -3 $OUT/gpu_rest.log
T end
