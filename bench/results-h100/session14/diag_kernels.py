"""Per-variant: serial fault latency, and ATAX's kernels cold at x = 0 and at x = 8 (session diag)."""
import sys, time, json
import numpy as np, cupy, dream
from dream.bench.polybench import SOURCE
from dream.bench.harness import DREAM_BUILD, ring_bytes
from dream.bench.transfer import serial_latency
tag = sys.argv[1]
data = np.random.default_rng(3).integers(0, 2**63, (256 << 20) // 8, dtype=np.uint64)
lat = [round(serial_latency("direct", {}, 4096, data) / 1e3, 2) for _ in range(3)]
print(tag, "serial_us", lat)
n = 16384
A = np.random.default_rng(1).random((n, n), dtype=np.float32)
v = cupy.asarray(np.random.default_rng(2).random(n, dtype=np.float32))
out = cupy.zeros(n, np.float32)
for x in (0, 8):
    with dream.Runtime(backend="direct", page_size=4096, gpu_memory=ring_bytes(A.nbytes, x, 4096)) as rt:
        a = rt.array(A.reshape(-1))
        ks = {k: rt.kernel(DREAM_BUILD + SOURCE, k) for k in ("rows", "cols")}
        for rep in range(2):
            for k in ("rows", "cols"):
                rt.evict()
                rt.reset_stats(); out.fill(0); cupy.cuda.Device().synchronize()
                t = time.perf_counter()
                ks[k](n // 256, 256, (a, v, out, np.int32(n), np.int32(n)))
                cupy.cuda.Device().synchronize()
                s = rt.stats().as_dict()
                print(tag, f"x={x}", k, round(time.perf_counter() - t, 4), json.dumps({q: s[q] for q in ("faults", "pages_in", "ahead", "coalesced")}))
