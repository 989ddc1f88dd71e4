"""Serial fault latency: one warp walks 2,000 pages (transfer.py SERIAL), served or general build."""
import sys, time, numpy as np, cupy
import dream

from dream.bench.transfer import dream_source, SERIAL, serial_step
mode = sys.argv[1]
warps = int(sys.argv[2]) if len(sys.argv) > 2 else None
page = 4096
data = np.random.default_rng(2).integers(0, 2**63, 2000 * 4096 // 8, dtype=np.uint64)
nbytes = 2000 * page
with dream.Runtime(backend="direct", page_size=page, gpu_memory=nbytes + 64 * page) as rt:
    a = rt.array(data.view(np.complex128))
    k = rt.kernel(dream_source(SERIAL), "serial")
    sink, ns = cupy.zeros(1, np.uint64), cupy.zeros(1, np.uint64)
    n = nbytes // page
    for r in range(3):
        rt.evict(); rt.reset_stats()
        t0 = time.monotonic()
        k(1, 32, (a, np.uint64(page // 16), np.uint64(n), np.uint64(serial_step(n)), sink, ns))
        t1 = time.monotonic()
        s = rt.stats()
        print(f"{mode} warps={warps} per fault {int(ns.get()[0]) / (n - 1) / 1e3:.2f} us, launch {1e3*(t1-t0):.1f} ms, faults {s.faults} pages {s.pages_in} ahead {s.ahead} wait/fault {s.wait_ns / max(1, s.faults) / 1e3:.2f} us", flush=True)
