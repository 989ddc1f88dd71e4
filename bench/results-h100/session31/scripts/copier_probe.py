import sys, json, numpy as np, cupy, dream
from dream.bench.transfer import dream_source, SERIAL, serial_step
opts = json.loads(sys.argv[1]); n = 1000; page = 4096
data = np.random.default_rng(2).integers(0, 2**63, n * page // 8, dtype=np.uint64)
for rep in range(2):
    with dream.Runtime(backend="softrnic", page_size=page, gpu_memory=n * page + 64 * page, **opts) as rt:
        a = rt.array(data.view(np.complex128))
        k = rt.kernel(dream_source(SERIAL), "serial")
        sink, ns = cupy.zeros(1, np.uint64), cupy.zeros(1, np.uint64)
        cp = rt._backend.copier
        cp.mem.rings["pad0"][:] = 0
        k(1, 32, (a, np.uint64(page // 16), np.uint64(n), np.uint64(serial_step(n)), sink, ns))
        P = cp.mem.rings["pad0"].view(np.uint64).reshape(-1, 7).sum(0).astype(float)
        b = P[0]; ghz = 1.98e3
        print(f"{sys.argv[1]} serial {int(ns.get()[0]) / (n - 1) / 1e3:.2f} us; pieces {b:.0f}, per piece us: desc {P[1]/b/ghz:.2f} copy {P[2]/b/ghz:.2f} fence {P[3]/b/ghz:.2f}; per look: publish {P[4]/P[6]/ghz:.2f} last-poll {P[5]/P[6]/ghz:.2f} batches/look {b/P[6]:.2f} looks {P[6]:.0f}", flush=True)
