"""Vector add (DREAM Listing 1) over arrays 8x larger than the frame ring.

    python examples/vector_add.py [--backend direct|softrnic|nvme]
"""
import argparse
import time

import numpy as np

import dream

SRC = r'''
extern "C" __global__ void vadd(dream_ptr<float> a, dream_ptr<float> b,
                                dream_ptr<float> c, unsigned long long n) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}'''

p = argparse.ArgumentParser()
p.add_argument("--backend", default="direct")
p.add_argument("--n", type=int, default=1 << 26)
args = p.parse_args()

n = args.n
ring = 3 * n * 4 // 9                       # 8x oversubscription: ring = data / (1 + 8)
ha = np.random.default_rng(0).random(n, dtype=np.float32)
hb = np.random.default_rng(1).random(n, dtype=np.float32)
with dream.Runtime(backend=args.backend, page_size="4KiB", gpu_memory=ring) as rt:
    a, b, c = rt.array(ha), rt.array(hb), rt.empty(n, np.float32)
    vadd = rt.kernel(SRC, "vadd")
    grid = rt.nframes // 256                 # a thread per frame (any grid runs: fault.cuh)
    t = time.perf_counter()
    vadd(grid, 256, (a, b, c, np.uint64(n)))
    dt = time.perf_counter() - t
    assert np.array_equal(c.to_numpy(), ha + hb)
    print(f"{3 * n * 4 / dt / 1e9:.2f} GB/s; {rt.stats()}")
