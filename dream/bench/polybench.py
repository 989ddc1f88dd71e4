"""PolyBench/GPU as UVMBench ships it: ATAX, MVT, BICG, and vector add
(DREAM Fig. 13, 14). One thread per row or per column, as the suite writes
them: the row-wise kernels walk a row per thread (each lane of a warp on its
own row: no spatial locality across lanes), the column-wise ones a column
per thread (lanes on adjacent elements). The matrix (and vector add's three
arrays) are the big arrays; the vectors of a matrix kernel are N floats in
device memory for every system.

Two departures from the suite, both in every build: sizes are parameters
(nx rows, ny columns) rather than macros, and the kernels accumulate into
vectors that each run zeroes, so the chunked baseline can run them on a
block of rows at a time. Results are checked against NumPy (float32 sums of
positive terms: relative error within 1e-3).

    dream bench polybench --backend direct,softrnic --oversubscription 0,1,4,8
"""
from __future__ import annotations

import time

import numpy as np

from .harness import Array, Workload

BLOCK = 256

SOURCE = r'''
extern "C" __global__ void vadd(ARR(float) a, ARR(float) b, ARR(float) c, unsigned long long n) {
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

/* row-wise: out[i] += sum_j A[i][j] * v[j], a thread per row i < nx */
extern "C" __global__ void rows(ARR(float) A, const float *v, float *out, int nx, int ny) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx) {
        for (int j = 0; j < ny; j++)
            out[i] += A[(unsigned long long)i * ny + j] * v[j];
    }
}

/* rows through a read span per thread: one translation per page of the row
 * (the same loop on a plain pointer in the baselines) */
extern "C" __global__ void rows_span(ARR(float) A, const float *v, float *out, int nx, int ny) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx) {
        READ_SPAN(float) row(A);
        for (int j = 0; j < ny; j++)
            out[i] += row[(unsigned long long)i * ny + j] * v[j];
    }
}

/* column-wise: out[j] += sum_i A[i][j] * v[i], a thread per column j < ny */
extern "C" __global__ void cols(ARR(float) A, const float *v, float *out, int nx, int ny) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < ny) {
        for (int i = 0; i < nx; i++)
            out[j] += A[(unsigned long long)i * ny + j] * v[i];
    }
}'''

# Each kernel as the suite names it, in the rows/cols form above:
#   ATAX  atax_kernel1 tmp = A x (rows), atax_kernel2 y = A^T tmp (cols)
#   MVT   mvt_kernel1 x1 = A y1 (rows),  mvt_kernel2 x2 = A^T y2 (cols)
#   BICG  bicg_kernel1 s = A^T r (cols), bicg_kernel2 q = A p (rows)
# (kernel, input vector, output vector); an input named after an earlier
# output takes it (ATAX's tmp). "atax-span" (mvt-, bicg-) runs the row-wise
# kernel through a span: the one change a user can make (README, dream_span).
STEPS = {
    "atax": (("rows", "x", "tmp"), ("cols", "tmp", "y")),
    "mvt": (("rows", "y1", "x1"), ("cols", "y2", "x2")),
    "bicg": (("cols", "r", "s"), ("rows", "p", "q")),
}


def _matrix(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.random((n, n), dtype=np.float32)


class Matrix(Workload):
    """ATAX, MVT or BICG on an n x n float32 matrix."""
    family = "polybench"
    source = SOURCE

    def __init__(self, name: str, n: int, seed: int = 1):
        self.name, self.n = name, n
        base, _, variant = name.partition("-")
        self.spans = variant == "span"
        self.steps = tuple((f"{k}_span" if self.spans and k == "rows" else k, v, o)
                           for k, v, o in STEPS[base])
        self.kernels = tuple(k for k, _, _ in self.steps)
        self.A = _matrix(n, seed)
        rng = np.random.default_rng(seed + 1)
        self.inputs = {v: rng.random(n, dtype=np.float32) for _, v, _ in self.steps
                       if v not in [o for _, _, o in self.steps]}
        self.outputs = [o for _, _, o in self.steps]
        self._ref = self._pinned = None   # made on first use

    def describe(self):
        return {"n": self.n}

    def arrays(self):
        zeros = {o: Array(np.zeros(self.n, np.float32), big=False, read_only=False)
                 for o in self.outputs}
        return {"A": Array(self.A), **{k: Array(v, big=False) for k, v in self.inputs.items()},
                **zeros}

    def reset(self, run, i):
        for o in self.outputs:
            run[o].fill(0)

    def launch(self, run, i):
        n = np.int32(self.n)
        a = run["A"]
        if self.spans and hasattr(a, "rt") and a.rt.nframes <= self.n:   # a dream array
            from ..runtime.errors import ConfigError
            raise ConfigError(f"{self.name}: a span pins a page per thread ({self.n} threads); "
                              f"the ring has {a.rt.nframes} frames")
        for kernel, v, out in self.steps:
            run.k[kernel](-(-self.n // BLOCK), BLOCK, (run["A"], run[v], run[out], n, n))
        return {}

    def reference(self) -> dict:
        if self._ref is None:
            vec = dict(self.inputs)
            for kernel, v, out in self.steps:
                m = self.A if kernel.startswith("rows") else self.A.T
                vec[out] = (m @ vec[v].astype(np.float64)).astype(np.float64)
            self._ref = {o: vec[o] for o in self.outputs}
        return self._ref

    def _wrong(self, got: dict) -> dict:
        ref = self.reference()
        bad = sum(int(np.count_nonzero(~np.isclose(got[o], ref[o], rtol=1e-3, atol=0)))
                  for o in self.outputs)
        return {"wrong_values": bad}

    def errors(self, run, i):
        return self._wrong({o: run.get(o) for o in self.outputs})

    def chunked(self, gpu_bytes, i, rt_raw):
        """Blocks of rows copied to device memory in turn, each kernel
        applied to a block (both kernels accumulate, so blocks add up); a
        pass over the matrix per kernel unless the whole matrix fits. No
        overlap of copy and compute."""
        import cupy
        from .harness import RAW_BUILD, pinned_copy
        n = self.n
        row_bytes = 4 * n
        block_rows = max(1, min(n, gpu_bytes // row_bytes))
        if self._pinned is None:
            self._pinned = pinned_copy(self.A)
        host = self._pinned
        k = {name: rt_raw.kernel(RAW_BUILD + SOURCE, name) for name in self.kernels}
        vec = {name: cupy.asarray(v) for name, v in self.inputs.items()}
        vec.update({o: cupy.zeros(n, np.float32) for o in self.outputs})
        buf = cupy.empty(block_rows * n, np.float32)
        resident = block_rows == n
        t = time.perf_counter()
        copied = 0
        for step, (kernel, v, out) in enumerate(self.steps):
            for r0 in range(0, n, block_rows):
                rows = min(block_rows, n - r0)
                if not (resident and step > 0):
                    cupy.cuda.runtime.memcpy(buf.data.ptr, host.host_ptr + r0 * row_bytes,
                                             rows * row_bytes, 1)
                    copied += rows * row_bytes
                if kernel.startswith("rows"):   # this block's rows of out
                    args = (buf, vec[v], vec[out].data.ptr + 4 * r0, np.int32(rows), np.int32(n))
                    k[kernel](-(-rows // BLOCK), BLOCK, args)
                else:                  # every column, over this block's rows
                    args = (buf, vec[v].data.ptr + 4 * r0, vec[out], np.int32(rows), np.int32(n))
                    k[kernel](-(-n // BLOCK), BLOCK, args)
        cupy.cuda.Device().synchronize()
        seconds = time.perf_counter() - t
        return seconds, {"bytes_in": copied}, self._wrong({o: vec[o].get() for o in self.outputs})


class VectorAdd(Workload):
    """c = a + b on n float32 (DREAM Listing 1), a thread per element."""
    family = "polybench"
    name = "vadd"
    source = SOURCE
    kernels = ("vadd",)

    def __init__(self, n: int, seed: int = 1):
        self.n = n
        rng = np.random.default_rng(seed)
        self.a = rng.random(n, dtype=np.float32)
        self.b = rng.random(n, dtype=np.float32)
        self.c = self.a + self.b
        self._pinned = None

    def describe(self):
        return {"n": self.n}

    def arrays(self):
        return {"a": Array(self.a), "b": Array(self.b),
                "c": Array(np.zeros(self.n, np.float32), read_only=False)}

    def reset(self, run, i):
        run.set("c", np.zeros(self.n, np.float32))

    def launch(self, run, i):
        run.k["vadd"](-(-self.n // BLOCK), BLOCK, (run["a"], run["b"], run["c"], np.uint64(self.n)))
        return {}

    def errors(self, run, i):
        return {"wrong_values": int(np.count_nonzero(run.get("c") != self.c))}

    def chunked(self, gpu_bytes, i, rt_raw):
        """Blocks of a and b copied in, added, c copied out; a third of the
        device budget per array. No overlap of copy and compute."""
        import cupy
        from .harness import RAW_BUILD, pinned_copy
        if self._pinned is None:   # a, b, then room for c
            self._pinned = pinned_copy(self.a, self.b, np.zeros_like(self.a))
        host = self._pinned
        k = rt_raw.kernel(RAW_BUILD + SOURCE, "vadd")
        per = max(1, min(self.n, gpu_bytes // 12))
        dev = cupy.empty(3 * per, np.float32)
        ptr = dev.data.ptr
        t = time.perf_counter()
        for lo in range(0, self.n, per):
            m = min(per, self.n - lo)
            for j in range(2):
                cupy.cuda.runtime.memcpy(ptr + 4 * j * per, host.host_ptr + 4 * (j * self.n + lo),
                                         4 * m, 1)
            k(-(-m // BLOCK), BLOCK, (ptr, ptr + 4 * per, ptr + 8 * per, np.uint64(m)))
            cupy.cuda.runtime.memcpy(host.host_ptr + 4 * (2 * self.n + lo), ptr + 8 * per, 4 * m, 2)
        seconds = time.perf_counter() - t
        c = host.view(np.float32)[2 * self.n: 3 * self.n]
        return seconds, {"bytes_in": 8 * self.n, "bytes_out": 4 * self.n}, \
            {"wrong_values": int(np.count_nonzero(c != self.c))}


def workloads(names, n: int, vadd_n: int, seed: int = 1):
    """The named workloads, built one at a time (each holds its inputs)."""
    for name in names:
        yield VectorAdd(vadd_n, seed) if name == "vadd" else Matrix(name, n, seed)


def add_arguments(p):
    from .cli import common_arguments
    common_arguments(p)
    p.add_argument("--kernels", default="atax,mvt,bicg,vadd",
                   help="also atax-span, mvt-span, bicg-span (row-wise kernel through a dream_span)")
    p.add_argument("--n", type=int, default=None,
                   help="matrix side (default 16384: 1 GiB; --quick 2048)")
    p.add_argument("--vadd-n", type=int, default=None,
                   help="vector add elements (default 2**28: 3 GiB in three arrays; --quick 2**22)")


def run(args) -> int:
    from .cli import plan_from
    from .harness import run_experiment
    plan = plan_from(args)
    names = args.kernels.split(",")
    for name in names:
        base, _, variant = name.partition("-")
        if name != "vadd" and (base not in STEPS or variant not in ("", "span")):
            raise SystemExit(f"--kernels: no kernel {name!r}; there are atax, mvt, bicg, vadd "
                             "and atax-span, mvt-span, bicg-span")
    n = args.n or (2048 if args.quick else 16384)
    vadd_n = args.vadd_n or (1 << 22 if args.quick else 1 << 28)
    return run_experiment("polybench", workloads(names, n, vadd_n), len(names), plan)
