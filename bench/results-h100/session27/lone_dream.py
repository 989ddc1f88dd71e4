"""Lone-lane faults through dream (direct, 4 KiB, ring holds all): serial
(one lane of one warp, pages in a scattered order) and throughput with
`lanes` lanes of every warp active (31: every lane a group of its own; 32:
the whole warp, gather)."""
import sys, time
import numpy as np, cupy
import dream
from dream.bench.transfer import serial_step

SRC = r'''
extern "C" __global__ void lone(dream_ptr<unsigned long long> a, unsigned long long per_page,
                                unsigned long long pages, unsigned long long step, int lanes,
                                unsigned long long *sink) {
    const unsigned lane = threadIdx.x % 32;
    if (lane >= lanes) return;
    const unsigned long long w = (blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x) / 32,
                             nw = (unsigned long long)gridDim.x * blockDim.x / 32;
    unsigned long long acc = 0;
    for (unsigned long long i = w * lanes + lane; i < pages; i += nw * lanes)
        acc += a[(i * step % pages) * per_page];
    if (acc == 42) *sink = acc;
}'''
pages = 131072
data = np.arange(pages * 512, dtype=np.uint64)
with dream.Runtime(backend="direct", page_size=4096, gpu_memory=(pages + 64) * 4096) as rt:
    a = rt.array(data)
    k = rt.kernel(SRC, "lone")
    sink = cupy.zeros(1, np.uint64)
    step = serial_step(pages)
    for label, grid, block, lanes, n in (("serial 1 lane", 1, 32, 1, 2000), ("serial 1 lane", 1, 32, 1, 2000),
                                         ("1 lane/warp", 528, 256, 1, pages), ("31 lanes/warp", 528, 256, 31, pages),
                                         ("32 lanes/warp", 528, 256, 32, pages), ("31 lanes/warp", 528, 256, 31, pages),
                                         ("31 lanes, 132x256", 132, 256, 31, pages)):
        rt.evict(); rt.reset_stats(); cupy.cuda.Device().synchronize()
        t = time.perf_counter()
        k(grid, block, (a, np.uint64(512), np.uint64(n), np.uint64(step if n == pages else serial_step(n)), np.int32(lanes), sink))
        cupy.cuda.Device().synchronize()
        dt = time.perf_counter() - t
        s = rt.stats()
        print(f"{label:18s} {n:7d} pages {dt*1e3:8.2f} ms: {dt/n*1e6:7.2f} us/page, {n*4096/dt/1e9:6.2f} GB/s;"
              f" in {s.pages_in} faults {s.faults} coalesced {s.coalesced} gathered {s.gathered} wait/fault {s.wait_ns/max(1,s.faults)/1e3:.1f} us", flush=True)
