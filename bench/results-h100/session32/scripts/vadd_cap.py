"""Cold vector add, a thread per float, 3 GiB, the ring holding it all, by the fault module's register cap."""
import sys, time, numpy as np, cupy
import dream.runtime.compile as C
C.FAULT_REGISTERS = int(sys.argv[1])
import dream
SRC = r'''extern "C" __global__ void vadd(dream_ptr<float> a, dream_ptr<float> b, dream_ptr<float> c, unsigned long long n) {
    const unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i]; }'''
n = 1 << 28
rng = np.random.default_rng(1)
ha = rng.random(n, dtype=np.float32); hb = rng.random(n, dtype=np.float32)
with dream.Runtime(backend="direct", page_size="4KiB", gpu_memory=3 * n * 4 + (64 << 20)) as rt:
    a, b, c = rt.array(ha), rt.array(hb), rt.empty(n, np.float32)
    k = rt.kernel(SRC, "vadd")
    ts = []
    for r in range(3):
        rt.evict(); cupy.cuda.Device().synchronize()
        t = time.perf_counter(); k(n // 256, 256, (a, b, c, np.uint64(n))); cupy.cuda.Device().synchronize()
        ts.append(time.perf_counter() - t)
    out = c.to_numpy()
    assert np.array_equal(out[::4097], (ha + hb)[::4097])
    print(f"cap {sys.argv[1]}: vadd cold", " ".join(f"{x:.3f}" for x in ts), "s", flush=True)
