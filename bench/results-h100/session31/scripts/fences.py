import cupy, numpy as np
from dream.runtime.pinned import PinnedBuffer
src = r'''
extern "C" __global__ void f(unsigned long long *dev, unsigned long long *host, unsigned long long *out, int mode, int where) {
    long long t0 = clock64();
    for (int i = 0; i < 2000; i++) {
        if (where == 0) dev[(i & 63) * 8] = i;
        else if (where == 1) *(volatile unsigned long long *)&host[(i & 7) * 8] = i;
        switch (mode) {
        case 1: asm volatile("fence.sc.gpu;" ::: "memory"); break;
        case 2: asm volatile("fence.acq_rel.gpu;" ::: "memory"); break;
        case 3: asm volatile("fence.sc.sys;" ::: "memory"); break;
        case 4: asm volatile("fence.acq_rel.sys;" ::: "memory"); break;
        default: break;
        }
    }
    out[0] = clock64() - t0;
}'''
k = cupy.RawKernel(src, "f")
dev = cupy.zeros(64 * 8, np.uint64); host = PinnedBuffer(4096); out = cupy.zeros(1, np.uint64)
names = ["none", "fence.sc.gpu", "fence.acq_rel.gpu", "fence.sc.sys", "fence.acq_rel.sys"]
for where, wn in ((0, "after a device store"), (1, "after a host store"), (2, "no store")):
    for mode in range(5):
        ts = []
        for _ in range(3):
            k((1,), (1,), (dev, np.uint64(host.device_ptr), out, np.int32(mode), np.int32(where)))
            ts.append(int(out.get()[0]) / 2000 / 1.98)
        print(f"{wn:22s} {names[mode]:18s} {min(ts):8.1f} ns/iter")
