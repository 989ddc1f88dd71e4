"""Do cudaMemcpyBatchAsync copies need free SMs? A kernel that fills every SM
spins until a flag in device memory is set by a batched H2D copy issued from a
non-blocking stream while it runs."""
import time, threading, sys
import numpy as np, cupy
from cuda.bindings import runtime as crt

src = r'''
extern "C" __global__ void spin(volatile unsigned *flag, unsigned long long limit_ns, unsigned *out) {
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    float acc = threadIdx.x;
    for (;;) {
        if (*flag) break;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        if (t - t0 > limit_ns) { if (threadIdx.x == 0) atomicAdd(out, 1u); break; }
        acc = acc * 1.0001f + 1.0f;
    }
    if (acc == 12345.0f) out[1] = 1;
}'''
mod = cupy.RawModule(code=src)
k = mod.get_function("spin")
dev = cupy.cuda.Device()
sms = dev.attributes["MultiProcessorCount"]
maxthr = dev.attributes["MaxThreadsPerMultiProcessor"]
flag = cupy.zeros(1, np.uint32)
out = cupy.zeros(2, np.uint32)
host = cupy.cuda.alloc_pinned_memory(4096)
hv = np.frombuffer(host, np.uint32, 1024); hv[:] = 1
s_kernel = cupy.cuda.Stream(non_blocking=True)
s_copy = cupy.cuda.Stream(non_blocking=True)

scratch = cupy.zeros(1 << 24, np.uint8)
hbig = cupy.cuda.alloc_pinned_memory(1 << 24)

def trial(blocks_per_sm, threads, flags, nbytes, count):
    flag.fill(0); out.fill(0); cupy.cuda.Device().synchronize()
    kk = k
    grid = sms * blocks_per_sm
    kk((grid,), (threads,), (flag, np.uint64(1_000_000_000), out), stream=s_kernel)
    time.sleep(0.05)
    attr = crt.cudaMemcpyAttributes()
    attr.srcAccessOrder = crt.cudaMemcpySrcAccessOrder.cudaMemcpySrcAccessOrderStream
    try:
        attr.flags = flags
    except Exception:
        attr.flags = crt.cudaMemcpyFlags(flags)
    t0 = time.perf_counter()
    dsts = [scratch.data.ptr + i * 2 * nbytes for i in range(count - 1)] + [flag.data.ptr]
    srcs = [hbig.ptr + i * 2 * nbytes for i in range(count - 1)] + [host.ptr]
    sizes = [nbytes] * (count - 1) + [4]
    err, = crt.cudaMemcpyBatchAsync(dsts, srcs, sizes, count, [attr], [0], 1, s_copy.ptr)
    t_api = time.perf_counter() - t0
    s_kernel.synchronize()
    t = time.perf_counter() - t0
    o = out.get()
    print(f"blocks/SM {blocks_per_sm} x {threads} thr, flags {flags}, {count} copies of {nbytes} B: api {t_api*1e6:.0f} us, err {err}, "
          f"kernel done after {t*1e3:.1f} ms, timed-out blocks {o[0]}", flush=True)

for bps, thr in ((1, 256), (maxthr // 256, 256)):
    for fl in (0, 1):
        for nb, cnt in ((64, 2), (64, 8), (64, 64), (4096, 8), (4096, 64), (4096, 512), (65536, 64)):
            trial(bps, thr, fl, nb, cnt)
