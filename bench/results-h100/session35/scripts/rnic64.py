"""softrnic 64 KiB stream (transfer.py's shape, 256 MiB, ring 1/4): engine settings, with engine counters."""
import sys, json, time, numpy as np, cupy
import dream
from dream.bench import transfer as T
from dream.bench.harness import ring_bytes
from dream.runtime.pinned import PinnedBuffer
nbytes, page, reps = 256 << 20, int(sys.argv[1]) if len(sys.argv) > 1 else 65536, 3
pinned = PinnedBuffer(nbytes); data = pinned.view(np.uint64); T.fill_pattern(data)
check = T.xor_words(pinned.view(np.uint32))
print("bulk H2D", round(T.bulk_h2d(pinned, nbytes, reps)["GBps"], 2), "GB/s", flush=True)
for spec in sys.argv[2:]:
    name, _, o = spec.partition(":")
    opts = json.loads(o) if o else {}
    with dream.Runtime(backend=name, page_size=page, gpu_memory=ring_bytes(nbytes, 3, page), **opts) as rt:
        a = rt.array(data.view(np.complex128), name="data")
        sink = cupy.zeros(1, np.uint64)
        k = rt.kernel(T.dream_source(T.STREAM), "stream")
        grid, block = T.launch_shape(rt, k)
        n16 = nbytes // 16
        per = T.grid_stream(n16, grid * block // 32)
        def go():
            sink.fill(0); k(grid, block, (a, np.uint64(n16), np.uint64(per), sink))
        c0 = rt._backend.nic.counters() if name == "softrnic" else {}
        rt.reset_stats()
        t, ts = T.timed(go, reps, rt.evict)
        c1 = rt._backend.nic.counters() if name == "softrnic" else {}
        s = rt.stats()
        d = {x: c1[x] - c0.get(x, 0) for x in c1}
        print(f"{spec:45s} {nbytes / t / 1e9:6.2f} GB/s ok={int(sink.get()[0]) == check} grid={grid}x{block} "
              f"faults={s.faults} pages={s.pages_in} ahead={s.ahead} wait/fault={s.wait_ns / max(1, s.faults) / 1e3:.1f}us "
              f"| {d} | {[round(x, 4) for x in ts]}", flush=True)
