"""Serial fault with the diagnostic queue.cuh / copier.cuh (.b42/diag_hdr): per fault, ns sums in counters the serial
run leaves at zero (request: ticket..filled, filled..rung, rung..completion) and the copy kernel's looks
(ring pad0: looks, batches, found->stage read, found->first batch landed, found->look end)."""
import sys, numpy as np, cupy
import dream
from dream.bench.transfer import dream_source, SERIAL, serial_step
tag = sys.argv[1]
page = 4096
data = np.random.default_rng(2).integers(0, 2**63, 2000 * 4096 // 8, dtype=np.uint64)
nbytes = 2000 * page
for spec in sys.argv[2].split(","):
    name, *kv = spec.split(":")
    opts = dict(x.split("=") for x in kv)
    with dream.Runtime(backend=name, page_size=page, gpu_memory=nbytes + 64 * page, **opts) as rt:
        a = rt.array(data.view(np.complex128))
        k = rt.kernel(dream_source(SERIAL), "serial")
        sink, ns = cupy.zeros(1, np.uint64), cupy.zeros(1, np.uint64)
        n = nbytes // page
        for r in range(3):
            rt.evict(); rt.reset_stats()
            k(1, 32, (a, np.uint64(page // 16), np.uint64(n), np.uint64(serial_step(n)), sink, ns))
            s = rt.stats()
            f = s.faults
            print(f"{tag:5s} {spec:28s} per fault {int(ns.get()[0]) / (n - 1) / 1e3:.2f} us; request: to filled "
                  f"{s.frame_skips / f / 1e3:.2f}, to rung {s.coalesced / f / 1e3:.2f}, to completion {s.retries / f / 1e3:.2f} us", flush=True)
