"""Where vector add's cold time goes (session 28): direct, 4 KiB, ring holds
all; each variant cold (rt.evict() first), its time and fault counters."""
import sys, time
import numpy as np, cupy
import dream

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 28
SRC = r'''
extern "C" __global__ void vadd(dream_ptr<float> a, dream_ptr<float> b, dream_ptr<float> c, unsigned long long n) {
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
extern "C" __global__ void vgs(dream_ptr<float> a, dream_ptr<float> b, dream_ptr<float> c, unsigned long long n) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}
extern "C" __global__ void rd2(dream_ptr<float> a, dream_ptr<float> b, float *sink, unsigned long long n) {
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) { float s = a[i] + b[i]; if (s == -1.0f) *sink = s; }
}
extern "C" __global__ void rd1(dream_ptr<float> a, float *sink, unsigned long long n) {
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) { float s = a[i]; if (s == -1.0f) *sink = s; }
}
extern "C" __global__ void wr1(dream_ptr<float> c, unsigned long long n) {
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) c[i] = 1.0f;
}
extern "C" __global__ void wpp(dream_ptr<float> a, float *sink, unsigned long long n) {
    /* a warp per page: lanes read its 1024 floats */
    const unsigned long long w = (blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x) / 32;
    float s = 0;
    for (unsigned long long i = w * 1024 + threadIdx.x % 32; i < (w + 1) * 1024 && i < n; i += 32) s += a[i];
    if (s == -1.0f) *sink = s;
}'''
SRC_LB = r'''
extern "C" __global__ void __launch_bounds__(1024) vlb(dream_ptr<float> a, dream_ptr<float> b, dream_ptr<float> c, unsigned long long n) {
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
'''
rng = np.random.default_rng(1)
A = rng.random(n, dtype=np.float32); B = rng.random(n, dtype=np.float32)
pages = 3 * n * 4 // 4096
with dream.Runtime(backend="direct", page_size=4096, gpu_memory=(pages + 1024) * 4096) as rt:
    a, b, c = rt.array(A), rt.array(B), rt.zeros(n, np.float32)
    k = {name: rt.kernel(SRC, name) for name in ("vadd", "vgs", "rd2", "rd1", "wr1", "wpp")}
    k["vlb"] = rt.kernel(SRC_LB, "vlb")   # its own source: launch bounds make a source's every kernel whole
    k["vlb8"] = rt.kernel(SRC_LB, "vlb", options=("--maxrregcount=255",))   # as before: the copy sized for 128+
    sink = cupy.zeros(1, np.float32)
    N = np.uint64(n)
    runs = {
        "vadd 256": lambda: k["vadd"](-(-n // 256), 256, (a, b, c, N)),
        "vadd 1024": lambda: k["vadd"](-(-n // 1024), 1024, (a, b, c, N)),
        "vlb 1024": lambda: k["vlb"](-(-n // 1024), 1024, (a, b, c, N)),
        "vlb8 1024": lambda: k["vlb8"](-(-n // 1024), 1024, (a, b, c, N)),
        "vadd 768": lambda: k["vadd"](-(-n // 768), 768, (a, b, c, N)),
        "vadd 640": lambda: k["vadd"](-(-n // 640), 640, (a, b, c, N)),
        "vgs 1056x256": lambda: k["vgs"](1056, 256, (a, b, c, N)),
        "rd2 256": lambda: k["rd2"](-(-n // 256), 256, (a, b, sink, N)),
        "rd1 256": lambda: k["rd1"](-(-n // 256), 256, (a, sink, N)),
        "wr1 256": lambda: k["wr1"](-(-n // 256), 256, (c, N)),
        "wpp 256": lambda: k["wpp"](-(-n // 8192), 256, (a, sink, N)),
    }
    order = sys.argv[2].split(",") if len(sys.argv) > 2 else list(runs)
    for rep in range(int(sys.argv[3]) if len(sys.argv) > 3 else 2):
        for name in order:
            rt.evict(); rt.reset_stats(); cupy.cuda.Device().synchronize()
            try:
                t = time.perf_counter(); runs[name](); cupy.cuda.Device().synchronize(); dt = time.perf_counter() - t
            except Exception as e:
                print(f"{name:14s} {type(e).__name__}: {str(e)[:80]}"); continue
            s = rt.stats()
            print(f"{name:14s} {dt*1e3:8.2f} ms  in {s.pages_in:7d} ({s.pages_in*4096/dt/1e9:5.1f} GB/s) faults {s.faults:9d}"
                  f" coalesced {s.coalesced:9d} ahead {s.ahead} gathered {s.gathered} wait/fault {s.wait_ns/max(1,s.faults)/1e3:7.1f} us", flush=True)
    rt.evict(); cupy.cuda.Device().synchronize()
    t = time.perf_counter(); runs["vadd 256"](); cupy.cuda.Device().synchronize()
    t = time.perf_counter(); runs["vadd 256"](); cupy.cuda.Device().synchronize()
    print(f"vadd 256 resident {1e3*(time.perf_counter()-t):.2f} ms")
    assert np.array_equal(c.to_numpy(), A + B)
