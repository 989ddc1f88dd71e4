"""The floor of a serial 4 KiB fault on this GPU (session 30): one warp, page
after page (a stride past any read-ahead), each page: claim an entry with a
CAS, copy the page from pinned host memory into a device frame (8 16-byte
loads a lane in flight, as direct does), fence, publish the entry, read the
warp's 512 bytes back from the frame. Steps dropped one at a time show what
each costs. Raw CUDA through CuPy; no dream code."""
import numpy as np, cupy
SRC = r'''
extern "C" __global__ void walk(const uint4 *host, uint4 *frames, unsigned long long *pte,
                                unsigned long long n, unsigned long long step, int mode,
                                unsigned long long *ns, unsigned long long *sink) {
    const unsigned lane = threadIdx.x;
    unsigned acc = 0;
    unsigned long long t0 = 0;
    for (unsigned long long k = 0; k < n; k++) {
        if (k == 1) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
        const unsigned long long p = k * step % n;
        const uint4 *src = host + p * 256;
        uint4 *dst = frames + p * 256;
        if (mode == 4) {                       /* zero-copy: the warp's 512 bytes from host memory */
            uint4 v = __ldcg(src + lane);
            acc ^= v.x;
            continue;
        }
        if (mode != 1 && lane == 0)            /* claim */
            acc ^= (unsigned)atomicCAS(&pte[p], 0ull, 1ull);
        __syncwarp();
        uint4 v[8];
#pragma unroll
        for (int j = 0; j < 8; j++) v[j] = __ldcg(src + lane + 32 * j);
#pragma unroll
        for (int j = 0; j < 8; j++) __stcg(dst + lane + 32 * j, v[j]);
        if (mode != 2) __threadfence();        /* the data before the entry */
        if (lane == 0) {
            if (mode == 3) atomicExch(&pte[p], 2ull);
            else asm volatile("st.relaxed.gpu.u64 [%0], %1;" :: "l"(pte + p), "l"(2ull) : "memory");
        }
        __syncwarp();
        const uint4 w = __ldcg(dst + lane);    /* the access */
        acc ^= w.x;
    }
    unsigned long long t1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    if (lane == 0) *ns = t1 - t0;
    atomicXor(sink, (unsigned long long)acc);
}'''
k = cupy.RawKernel(SRC, "walk")
n, step = 2000, 1021
pinned = cupy.cuda.alloc_pinned_memory(n * 4096)
h = np.frombuffer(pinned, np.uint8, n * 4096); h[:] = np.random.default_rng(1).integers(0, 255, n * 4096, dtype=np.uint8)
from cuda.bindings import runtime as rt
err, dptr = rt.cudaHostGetDevicePointer(pinned.ptr, 0)
frames = cupy.zeros(n * 4096, np.uint8); pte = cupy.zeros(n, np.uint64)
ns, sink = cupy.zeros(1, np.uint64), cupy.zeros(1, np.uint64)
names = {0: "claim CAS + copy + fence + publish (st) + read", 1: "no claim", 2: "no fence",
         3: "publish by atomicExch", 4: "zero-copy read of 512 B only"}
for rep in range(3):
    for mode in (0, 1, 2, 3, 4):
        pte.fill(0)
        k((1,), (32,), (np.uint64(dptr), frames, pte, np.uint64(n), np.uint64(step), np.int32(mode), ns, sink))
        cupy.cuda.Device().synchronize()
        print(f"rep {rep} mode {mode} {names[mode]:50s} {int(ns.get()[0]) / (n - 1) / 1e3:.2f} us/page", flush=True)
from dream.bench.transfer import serial_latency
data = np.random.default_rng(2).integers(0, 2**63, n * 4096 // 8, dtype=np.uint64)
for rep in range(3):
    print(f"rep {rep} dream direct serial fault {serial_latency('direct', {}, 4096, data) / 1e3:.2f} us", flush=True)
