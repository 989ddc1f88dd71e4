"""How long a read of %globaltimer takes in one thread (session 30)."""
import numpy as np, cupy
K = cupy.RawKernel(r'''
extern "C" __global__ void t(unsigned long long *out, int mode) {
    long long c0 = clock64();
    unsigned long long acc = 0, x = 0;
    for (int i = 0; i < 1000; i++) {
        if (mode == 0) { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(x)); acc += x; }
        else if (mode == 1) { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(x)); acc = acc * 3 + x; if (acc == 7) break; }
        else if (mode == 2) { asm volatile("mov.u32 %0, %%smid;" : "=r"(*(unsigned *)&x)); acc = acc * 3 + x; if (acc == 7) break; }
        else { x = clock64(); acc = acc * 3 + x; if (acc == 7) break; }
    }
    out[0] = clock64() - c0; out[1] = acc; }''', "t")
out = cupy.zeros(2, np.uint64)
for rep in range(2):
    for mode, name in ((0, "globaltimer, independent"), (1, "globaltimer, each used"), (2, "%smid, each used"), (3, "clock64, each used")):
        K((1,), (1,), (out, np.int32(mode))); cupy.cuda.Device().synchronize()
        print(f"{name:28s} {int(out.get()[0]) / 1000:.0f} cycles a read", flush=True)
