# session 32 call 5: the fault module's register cap against cold graphs (per launch), cold vector add and the serial fault
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
for cap in 128 96 80 64; do
  T "cap $cap"
  CAP=$cap timeout 90 python3 -P .b32/diag_launch.py bfs cc > /tmp/d.log 2>&1; echo "rc=$?"; grep -E "cold|warm|[0-9]{2}\.[0-9]+ ms resident=False" /tmp/d.log
  timeout 90 python3 -P .b32/vadd_cap.py $cap
  timeout 40 python3 -P .b32/serial_cap.py $cap
done
T end
