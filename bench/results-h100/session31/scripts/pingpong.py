"""GPU -> host -> GPU round trip through pinned host memory: one GPU thread
stores i (system scope), a host thread spinning on it answers i, the GPU
thread polls for the answer. The floor of any host engine's reply."""
import ctypes, subprocess, threading, numpy as np, cupy
from dream.runtime.pinned import PinnedBuffer
subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", "/tmp/pp.so", ".b31/pingpong.c"], check=True)
lib = ctypes.CDLL("/tmp/pp.so")
src = r'''
extern "C" __global__ void pp(unsigned long long *a, unsigned long long *b, unsigned long long *out, int n, int fence) {
    long long t0 = 0;
    for (int i = 1; i <= n; i++) {
        if (i == 2) t0 = clock64();
        if (fence) asm volatile("fence.sc.sys;" ::: "memory");
        asm volatile("st.relaxed.sys.global.u64 [%0], %1;" :: "l"(a), "l"((unsigned long long)i) : "memory");
        unsigned long long v;
        do { asm volatile("ld.relaxed.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(b) : "memory"); } while (v != (unsigned long long)i);
    }
    out[0] = clock64() - t0;
}'''
k = cupy.RawKernel(src, "pp")
n = 20000
out = cupy.zeros(1, np.uint64)
for fence in (0, 1, 0, 1):
    buf = PinnedBuffer(4096); buf.bytes[:] = 0
    a, b = buf.host_ptr, buf.host_ptr + 128
    t = threading.Thread(target=lib.serve, args=(ctypes.c_void_p(a), ctypes.c_void_p(b), n)); t.start()
    k((1,), (1,), (np.uint64(buf.device_ptr), np.uint64(buf.device_ptr + 128), out, np.int32(n), np.int32(fence)))
    cupy.cuda.Device().synchronize(); t.join()
    print(f"ping-pong GPU->host->GPU{' (fence.sc.sys before each store)' if fence else ''}: {int(out.get()[0]) / (n - 1) / 1.98e3:.2f} us", flush=True)
