"""Random gather: out[i] = table[idx[i]] with a table 4x larger than the ring.
The index array is a plain CuPy array; the table and the output are dream arrays.

    python examples/random_gather.py [--backend direct|softrnic|nvme]
"""
import argparse

import cupy
import numpy as np

import dream

SRC = r'''
extern "C" __global__ void gather(dream_ptr<double> table, const long long *idx,
                                  dream_ptr<double> out, unsigned long long n) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x)
        out[i] = table[idx[i]];
}'''

p = argparse.ArgumentParser()
p.add_argument("--backend", default="direct")
args = p.parse_args()

rng = np.random.default_rng(0)
table = rng.standard_normal(1 << 24)                       # 128 MiB
idx = rng.integers(0, table.size, 1 << 22).astype(np.int64)
with dream.Runtime(backend=args.backend, page_size="4KiB", gpu_memory="32MiB") as rt:
    t, out = rt.array(table), rt.empty(idx.size, np.float64)
    k = rt.kernel(SRC, "gather")
    k(rt.nframes // 256, 256, (t, cupy.asarray(idx), out, np.uint64(idx.size)))
    assert np.array_equal(out.to_numpy(), table[idx])
    s = rt.stats()
    print(f"ok: {s.pages_in:,} pages in for {idx.size:,} reads; {s}")
