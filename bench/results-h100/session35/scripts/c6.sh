# session 35 call 6: Nsight Compute on CC's first hook (Kronecker 22, every array at home): R resident build, G general build flagged at home, E general build through entries
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1); echo "ncu: $NCU"
T plain; for m in E G R; do timeout 60 python3 -P .b35/hook2.py $m 3; done
for m in E R G; do
  T "ncu $m"
  timeout 170 $NCU --clock-control none -k regex:cc_hook -c 1 --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats --section SourceCounters --section MemoryWorkloadAnalysis python3 -P .b35/hook2.py $m 1 > $OUT/ncu_$m.txt 2>&1; echo rc=$?
  grep -E "Registers Per|Achieved Occupancy|Theoretical Occupancy|Warp Cycles Per Issued|Issued Warp Per|No Eligible|Eligible Warps|Stall|L1/TEX Hit|L2 Hit|Duration|Executed Instructions " $OUT/ncu_$m.txt | head -40
done
T end
