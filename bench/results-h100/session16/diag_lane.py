"""Fault cost of one-lane groups (divergent code) against whole warps (session-16 diag)."""
import time, json, sys
import numpy as np, cupy, dream
SRC = r'''
extern "C" __global__ void walk(dream_ptr<unsigned> a, unsigned long long pages, int lanes, int per, int same,
                                unsigned long long step, unsigned long long *sink, unsigned long long *ns) {
    const int lane = threadIdx.x;
    if (lane >= lanes) return;
    const unsigned long long g = blockIdx.x * (unsigned long long)lanes + lane, T = gridDim.x * (unsigned long long)lanes;
    unsigned acc = 0;
    unsigned long long t0, t1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    for (int k = 0; k < per; k++) {
        const unsigned long long p = (same ? (k * gridDim.x + blockIdx.x) * step : (k * T + g) * step) % pages;
        acc ^= a[p * 1024 + lane];
    }
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    if (lane == 0 && blockIdx.x == 0) *ns = t1 - t0;
    atomicXor(sink, (unsigned long long)acc);
}'''
pages = 32768
data = np.random.default_rng(1).integers(0, 2**32, pages * 1024, dtype=np.uint32)
with dream.Runtime(backend="direct", page_size=4096, gpu_memory=(pages + 4096) * 4096) as rt:
    a = rt.array(data)
    k = rt.kernel(SRC, "walk")
    sink, ns = cupy.zeros(1, np.uint64), cupy.zeros(1, np.uint64)
    for same, warps, lanes in [(1, 1, 1), (0, 1, 31), (1, 1, 31), (0, 1024, 1), (1, 1024, 32)]:
            per = min(pages // ((1 if same else lanes) * warps), 512)
            if per < 4:
                continue
            rt.evict(); rt.reset_stats(); cupy.cuda.Device().synchronize()
            t = time.perf_counter()
            k(warps, 32, (a, np.uint64(pages), np.int32(lanes), np.int32(per), np.int32(same), np.uint64(37), sink, ns))
            cupy.cuda.Device().synchronize()
            dt = time.perf_counter() - t
            d = rt.stats().as_dict()
            print(f"same {same} warps {warps:5d} lanes {lanes:2d} per {per:4d}: {int(ns.get()[0])/per/1e3:7.2f} us/step (warp 0), "
                  f"{dt*1e3:7.2f} ms, {d['pages_in']/dt/1e3:8.1f} Kpages/s, faults {d['faults']} in {d['pages_in']} "
                  f"gathered {d['gathered']} wait/fault {d['wait_ns']/max(1,d['faults'])/1e3:.1f} us", flush=True)
