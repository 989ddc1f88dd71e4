"""Serial fault latency (one warp, 2,000 pages, direct), with the stepped serial kernel (transfer_kernels.SERIAL)
and with the old one (k * step % count), dream and zero-copy alike."""
import sys, time, numpy as np, cupy
import dream
from dream.bench import transfer_kernels as TK
from dream.bench.transfer import serial_step
OLD = TK.SERIAL.replace("uint4 v = a[at * stride + threadIdx.x];", "uint4 v = a[(k * step % count) * stride + threadIdx.x];").replace("at += step;\n        if (at >= count)\n            at -= count;\n", "")
assert OLD != TK.SERIAL and "at +=" not in OLD
mode = sys.argv[1]
page = 4096
data = np.random.default_rng(2).integers(0, 2**63, 2000 * 4096 // 8, dtype=np.uint64)
nbytes = 2000 * page
n = nbytes // page
for name, src in (("stepped", TK.SERIAL), ("modulo", OLD)):
    with dream.Runtime(backend="direct", page_size=page, gpu_memory=nbytes + 64 * page) as rt:
        a = rt.array(data.view(np.complex128))
        k = rt.kernel(TK.dream_source(src), "serial")
        sink, ns = cupy.zeros(1, np.uint64), cupy.zeros(1, np.uint64)
        res = []
        for r in range(3):
            rt.evict(); rt.reset_stats()
            k(1, 32, (a, np.uint64(page // 16), np.uint64(n), np.uint64(serial_step(n)), sink, ns))
            s = rt.stats()
            assert s.pages_in == n and s.ahead == 0, s
            res.append(int(ns.get()[0]) / (n - 1) / 1e3)
    pinned = cupy.cuda.alloc_pinned_memory(nbytes)
    host = np.frombuffer(pinned, np.uint64, nbytes // 8); host[:] = data
    kr = cupy.RawKernel(TK.raw_source(src), "serial")
    ptr = np.uint64(pinned.ptr)  # UVA: the pinned buffer's host address is its device address
    zc = []
    for r in range(3):
        kr((1,), (32,), (ptr, np.uint64(page // 16), np.uint64(n), np.uint64(serial_step(n)), sink, ns))
        cupy.cuda.Device().synchronize()
        zc.append(int(ns.get()[0]) / (n - 1) / 1e3)
    print(f"{mode} {name}: dream per fault " + " ".join(f"{x:.2f}" for x in res) + " us; zero-copy " + " ".join(f"{x:.2f}" for x in zc) + " us", flush=True)
