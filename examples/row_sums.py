"""Row sums with a thread per row (the access pattern of UVMBench's ATAX),
once through dream_ptr (every element translated) and once through a
dream_span (one translation per page of the row), at 4x oversubscription.
A span holds its page's frame while its thread runs, so the ring must have
more frames than threads (here 16,384 threads, 52,428 frames).

    python examples/row_sums.py [--backend direct|softrnic|nvme] [--rows 16384 --cols 16384]
"""
import argparse
import time

import numpy as np

import dream

SRC = r'''
extern "C" __global__ void by_ptr(dream_ptr<float> A, float *out, int rows, int cols) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows) {
        float s = 0;
        for (int j = 0; j < cols; j++)
            s += A[(unsigned long long)i * cols + j];
        out[i] = s;
    }
}
extern "C" __global__ void by_span(dream_ptr<float> A, float *out, int rows, int cols) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows) {
        dream_span<const float> row(A);     /* read only */
        float s = 0;
        for (int j = 0; j < cols; j++)
            s += row[(unsigned long long)i * cols + j];
        out[i] = s;
    }
}'''

p = argparse.ArgumentParser()
p.add_argument("--backend", default="direct")
p.add_argument("--rows", type=int, default=16384)
p.add_argument("--cols", type=int, default=16384)
args = p.parse_args()

import cupy  # noqa: E402  (after argparse: --help works without a GPU)

h = np.random.default_rng(0).random((args.rows, args.cols), dtype=np.float32)
ref = h.sum(axis=1, dtype=np.float64)
with dream.Runtime(backend=args.backend, page_size="4KiB", gpu_memory=h.nbytes // 5) as rt:
    A = rt.array(h)
    out = cupy.zeros(args.rows, np.float32)
    for name in ("by_ptr", "by_span"):
        k = rt.kernel(SRC, name)
        rt.evict()
        out.fill(0)
        t = time.perf_counter()
        k(-(-args.rows // 256), 256, (A, out, args.rows, args.cols))
        dt = time.perf_counter() - t
        assert np.allclose(out.get(), ref, rtol=1e-3), name
        print(f"{name}: {dt * 1e3:.1f} ms, {rt.stats().pages_in:,} page loads")
        rt.reset_stats()
