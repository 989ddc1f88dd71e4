"""The floor of a fault served by another warp (session 32): a requester warp
posts page numbers into a ring in device memory and waits for each; a server
warp on another SM polls the ring, copies the 4 KiB page from pinned host
memory into a device frame (8 16-byte loads a lane in flight, as direct
does), fences, and flags it done; the requester then reads its 512 bytes of
the frame. Against the same warp doing the copy itself (the in-warp floor,
session 30: 2.45 us with a claim). Raw CUDA through CuPy, H100."""
import numpy as np, cupy
SRC = r'''
extern "C" __global__ void served(const uint4 *src, uint4 *frames, unsigned long long *ring, unsigned *done,
                                  unsigned n, unsigned step, unsigned long long *out, int self_serve) {
    const unsigned lane = threadIdx.x;
    if (blockIdx.x == 1 && !self_serve) { /* the server */
        for (unsigned k = 0; k < n; k++) {
            unsigned long long r = 0;
            if (lane == 0)
                do { asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(r) : "l"(ring + (k & 255))); }
                while ((r >> 32) != k + 1);
            r = __shfl_sync(~0u, r, 0);
            const unsigned page = (unsigned)r;
            const uint4 *s = src + (unsigned long long)page * 256;
            uint4 *d = frames + (unsigned long long)page * 256;
            uint4 v[8];
#pragma unroll
            for (int u = 0; u < 8; u++) v[u] = __ldcg(s + lane + 32 * u);
#pragma unroll
            for (int u = 0; u < 8; u++) __stcg(d + lane + 32 * u, v[u]);
            __syncwarp();
            __threadfence();
            if (lane == 0) asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" :: "l"(done + page), "r"(k + 1) : "memory");
        }
        return;
    }
    if (blockIdx.x != 0) return;
    unsigned acc = 0;
    unsigned long long t0 = 0;
    for (unsigned k = 0; k < n; k++) {
        if (k == 1) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
        const unsigned page = (unsigned)((unsigned long long)k * step % n);
        if (self_serve) {
            const uint4 *s = src + (unsigned long long)page * 256;
            uint4 *d = frames + (unsigned long long)page * 256;
            uint4 v[8];
#pragma unroll
            for (int u = 0; u < 8; u++) v[u] = __ldcg(s + lane + 32 * u);
#pragma unroll
            for (int u = 0; u < 8; u++) __stcg(d + lane + 32 * u, v[u]);
            __syncwarp();
            __threadfence();
            if (lane == 0) asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" :: "l"(done + page), "r"(k + 1) : "memory");
        } else if (lane == 0) {
            asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" :: "l"(ring + (k & 255)),
                         "l"((unsigned long long)(k + 1) << 32 | page) : "memory");
        }
        unsigned d = 0;
        if (lane == 0)
            do { asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(d) : "l"(done + page) : "memory"); }
            while (d != k + 1);
        __syncwarp();
        const uint4 x = __ldcg(frames + (unsigned long long)page * 256 + lane);
        acc ^= x.x;
    }
    unsigned long long t1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    if (lane == 0) { out[0] = t1 - t0; out[1] = acc; }
}'''
n, step = 2000, 997
mod = cupy.RawModule(code=SRC)
k = mod.get_function("served")
host = cupy.cuda.alloc_pinned_memory(n * 4096)
h = np.frombuffer(host, dtype=np.uint8, count=n * 4096); h[:] = np.random.default_rng(1).integers(0, 255, n * 4096, dtype=np.uint8)
dptr = host.ptr   # cudaHostAlloc'd memory under UVA: the same address on the device
frames = cupy.zeros(n * 4096, np.uint8)
ring = cupy.zeros(256, np.uint64); done = cupy.zeros(n, np.uint32); out = cupy.zeros(2, np.uint64)
for label, selfs in (("served by another warp", 0), ("the warp itself", 1)) * 2:
    res = []
    for _ in range(3):
        ring.fill(0); done.fill(0)
        k((2,), (32,), (cupy.uint64(dptr), frames, ring, done, np.uint32(n), np.uint32(step), out, np.int32(selfs)))
        cupy.cuda.Device().synchronize()
        res.append(int(out.get()[0]) / (n - 1) / 1e3)
    assert np.array_equal(frames.get()[:4096 * 8], h[:4096 * 8])
    print(f"{label}: {' '.join(f'{x:.2f}' for x in res)} us per page", flush=True)
