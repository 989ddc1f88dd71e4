import sys, json, numpy as np, cupy, dream
from dream.bench.transfer import dream_source, SERIAL, serial_step
opts = json.loads(sys.argv[1]); n = 1000; page = 4096; ghz = 1.98e3
data = np.random.default_rng(2).integers(0, 2**63, n * page // 8, dtype=np.uint64)
for rep in range(2):
    with dream.Runtime(backend="softrnic", page_size=page, gpu_memory=n * page + 64 * page, **opts) as rt:
        a = rt.array(data.view(np.complex128))
        k = rt.kernel(dream_source(SERIAL), "serial")
        sink, ns = cupy.zeros(1, np.uint64), cupy.zeros(1, np.uint64)
        k(1, 32, (a, np.uint64(page // 16), np.uint64(n), np.uint64(serial_step(n)), sink, ns))
        s = rt.stats(); c = s.retries
        print(f"{sys.argv[1]} serial {int(ns.get()[0]) / (n - 1) / 1e3:.2f} us; {c} requests; us each: tickets {s.evictions/c/ghz:.2f} slot+fill+fences {s.writebacks/c/ghz:.2f} ring {s.bytes_out/c/ghz:.2f} poll {s.frame_skips/c/ghz:.2f}", flush=True)
