"""A serial fault step by step (session 30): fault.cuh with clock64 stamps
in dream_fault (fault_stamp.cuh), printed by the device for every 50th page;
the SM clock measured against %globaltimer to convert cycles to us."""
import numpy as np, cupy, subprocess, sys
CLK = cupy.RawKernel(r'''
extern "C" __global__ void clk(unsigned long long *out) {
    unsigned long long t0, t1; long long c0 = clock64();
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1)); } while (t1 - t0 < 20000000ull);
    out[0] = clock64() - c0; out[1] = t1 - t0; }''', "clk")
out = cupy.zeros(2, np.uint64); CLK((1,), (1,), (out,)); c, t = (int(x) for x in out.get())
ghz = c / t
print(f"SM clock {ghz:.3f} GHz", flush=True)
from dream.bench.transfer import serial_latency
n = 2000
data = np.random.default_rng(2).integers(0, 2**63, n * 4096 // 8, dtype=np.uint64)
print(f"serial fault {serial_latency('direct', {}, 4096, data) / 1e3:.2f} us", flush=True)
