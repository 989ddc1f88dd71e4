"""The shared correctness suite: results against NumPy under oversubscription,
for every backend in tests/backends.py. Oversubscription x means the frame
ring holds data / (1 + x)."""
import subprocess
import sys
import time

import numpy as np
import pytest

import dream
from backends import BACKENDS, COPY_ENGINES, runtime_factory

pytestmark = pytest.mark.gpu

BLOCK = 64

VADD = r'''
extern "C" __global__ void vadd(dream_ptr<T> a, dream_ptr<T> b, dream_ptr<T> c,
                                unsigned long long n) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}'''

GATHER = r'''
extern "C" __global__ void gather(dream_ptr<T> src, const long long *idx, dream_ptr<T> out,
                                  unsigned long long n) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x)
        out[i] = src[idx[i]];
}'''

SCATTER = r'''
extern "C" __global__ void scatter(dream_ptr<T> src, const long long *idx, dream_ptr<T> dst,
                                   unsigned long long n) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x)
        dst[idx[i]] = src[i];
}'''

ATOMICS = r'''
extern "C" __global__ void atomics(const long long *bucket, const int *val, unsigned long long n,
                                   dream_ptr<int> count, dream_ptr<int> lo, dream_ptr<int> hi,
                                   dream_ptr<long long> sum, dream_ptr<double> fsum,
                                   dream_ptr<int> owner) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x) {
        long long b = bucket[i];
        count.atomic_add(b, 1);
        lo.atomic_min(b, val[i]);
        hi.atomic_max(b, val[i]);
        sum.atomic_add(b, (long long)val[i]);
        fsum.atomic_add(b, (double)val[i]);
        owner.atomic_cas(b, -1, (int)(i % 1000003));
    }
}'''

RMW = r'''
extern "C" __global__ void rmw(dream_ptr<T> a, unsigned long long n) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x) {
        a[i] += (T)3;
        a[i] *= (T)2;
    }
}'''

TRANSPOSE = r'''
extern "C" __global__ void transpose(dream_ptr<T> a, dream_ptr<T> t, unsigned long long rows,
                                     unsigned long long cols) {
    for (unsigned long long k = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         k < rows * cols; k += (unsigned long long)gridDim.x * blockDim.x) {
        unsigned long long i = k / cols, j = k % cols;
        t[j * rows + i] = a[k];
    }
}'''

SUM = r'''
extern "C" __global__ void total(dream_ptr<T> a, unsigned long long n, unsigned long long *out) {
    unsigned long long s = 0;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x)
        s += (unsigned long long)a[i];
    atomicAdd(out, s);
}'''

SPAN = r'''
extern "C" __global__ void rows(dream_ptr<int> a, dream_ptr<long long> sums, dream_ptr<int> b,
                                unsigned long long rows, unsigned long long cols) {
    for (unsigned long long r = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         r < rows; r += (unsigned long long)gridDim.x * blockDim.x) {
        long long s = 0, t = 0;
        {
            dream_span<int> row(a);                /* one pin per page of the row */
            dream_span<const int> other(b);        /* read only: pages stay clean */
            for (unsigned long long j = 0; j < cols; j++) {
                int *q = row.ptr(r * cols + j);
                if (!q)
                    return;                        /* the error is raised after the kernel */
                s += *q;
                *q = 2 * *q + 1;
                t += other[r * cols + j];
            }
        }                                          /* released at scope end */
        dream_span<long long> out(sums);
        if (long long *q = out.ptr(r))
            *q = s - t;
    }
}'''


CTYPE = {np.float32: "float", np.float64: "double", np.int32: "int", np.uint32: "unsigned int",
         np.int64: "long long", np.uint64: "unsigned long long", np.uint8: "unsigned char"}


def typed(src, dtype):
    return f"typedef {CTYPE[np.dtype(dtype).type]} T;\n" + src


def grid_for(rt, n):
    return max(1, min(-(-n // BLOCK), rt.nframes // BLOCK))


def ring_for(data_bytes, x, page, floor=BLOCK):
    """Frame ring bytes for oversubscription x, at least `floor` frames."""
    return max(floor * page, (data_bytes // (1 + x)) // page * page)


def random_data(rng, dtype, n):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return rng.standard_normal(n).astype(dt)
    info = np.iinfo(dt)
    return rng.integers(max(info.min, -1000), min(info.max, 1000), n, dtype=dt, endpoint=True)


@pytest.fixture(params=BACKENDS)
def make_rt(request, tmp_path):
    return runtime_factory(request.param, tmp_path)


@pytest.fixture(params=BACKENDS + COPY_ENGINES)
def make_rt_dma(request, tmp_path):
    return runtime_factory(request.param, tmp_path)


@pytest.mark.parametrize("x", [0, 1, 4, 8])
@pytest.mark.parametrize("page_kib", [4, 16, 64])
def test_vadd_oversubscription(make_rt, x, page_kib):
    page = page_kib << 10
    n = max(200_000, BLOCK * page * (1 + x) // 12 + 12345)  # 3 float32 arrays
    rng = np.random.default_rng(x * 100 + page_kib)
    ha, hb = random_data(rng, np.float32, n), random_data(rng, np.float32, n)
    with make_rt(page_size=page, gpu_memory=ring_for(3 * n * 4, x, page)) as rt:
        a, b, c = rt.array(ha), rt.array(hb), rt.empty(n, np.float32)
        rt.kernel(typed(VADD, np.float32), "vadd")(grid_for(rt, n), BLOCK, (a, b, c, np.uint64(n)))
        np.testing.assert_array_equal(c.to_numpy(), ha + hb)
        s = rt.stats()
        assert s.pages_in >= a.n_pages + b.n_pages + c.n_pages
        if x > 0:
            assert s.evictions > 0 and s.writebacks > 0


TWO_D = r'''
extern "C" __global__ void vadd2d(dream_ptr<float> a, dream_ptr<float> b, dream_ptr<float> c,
                                  unsigned long long n) {
    const unsigned long long i = (blockIdx.x * (unsigned long long)blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}'''


@pytest.mark.parametrize("x", [0, 4])
def test_blocks_larger_than_the_linked_fault_path_allows(make_rt, x):
    # The linked fault path's 128 registers a thread leave room for 512
    # threads a block: blocks of 1,024 (1-D, and 32 x 32) and 768 take builds
    # of their own with fewer registers (kernel.py), cold and evicting; a block
    # past the GPU's limit is refused by name
    n = 1_000_003
    rng = np.random.default_rng(x)
    ha, hb = random_data(rng, np.float32, n), random_data(rng, np.float32, n)
    with make_rt(page_size=4096, gpu_memory=ring_for(3 * n * 4, x, 4096, floor=1024)) as rt:
        a, b, c = rt.array(ha), rt.array(hb), rt.empty(n, np.float32)
        k = rt.kernel(typed(VADD, np.float32), "vadd")
        for threads in (1024, 768):
            c.copy_from(np.zeros(n, np.float32))
            rt.evict()
            k(min(-(-n // threads), rt.nframes // 32), threads, (a, b, c, np.uint64(n)))
            np.testing.assert_array_equal(c.to_numpy(), ha + hb)
        assert k._most(None) >= 1024 or len(k._builds) == 3   # the two sizes took builds of their own
        k2 = rt.kernel(TWO_D, "vadd2d")
        c.copy_from(np.zeros(n, np.float32))
        rt.evict()
        k2(-(-n // 1024), (32, 32), (a, b, c, np.uint64(n)))
        np.testing.assert_array_equal(c.to_numpy(), ha + hb)
        # launch bounds of 1,024 threads: on direct built again with the count they left (kernel.py)
        src = typed(VADD, np.float32).replace("__global__ void", "__global__ void __launch_bounds__(1024)")
        k3 = rt.kernel(src, "vadd")
        told = [o for o in k3._options if o.startswith("-DDREAM_REGISTER_CAP=")]
        if rt._backend.sized_by_registers:
            assert len(told) == 1 and int(told[0].split("=")[1]) <= 65536 // 1024, told
        else:
            assert told == [], told
        c.copy_from(np.zeros(n, np.float32))
        rt.evict()
        k3(min(-(-n // 1024), rt.nframes // 32), 1024, (a, b, c, np.uint64(n)))
        np.testing.assert_array_equal(c.to_numpy(), ha + hb)
        with pytest.raises(dream.ConfigError, match="vadd: a block of 2048 threads"):
            k(1, 2048, (a, b, c, np.uint64(n)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.uint8])
def test_vadd_dtypes_at_4x(make_rt, dtype):
    n = 200_001
    rng = np.random.default_rng(7)
    ha, hb = random_data(rng, dtype, n), random_data(rng, dtype, n)
    page = 4096
    with make_rt(page_size=page, gpu_memory=ring_for(3 * n * np.dtype(dtype).itemsize, 4, page)) as rt:
        a, b, c = rt.array(ha), rt.array(hb), rt.zeros(n, dtype)
        rt.kernel(typed(VADD, dtype), "vadd")(grid_for(rt, n), BLOCK, (a, b, c, np.uint64(n)))
        np.testing.assert_array_equal(c.to_numpy(), ha + hb)


@pytest.mark.parametrize("skew", ["uniform", "zipf"])
@pytest.mark.parametrize("x", [0, 4, 8])
def test_random_gather(make_rt_dma, skew, x):
    import cupy
    n_src, n = 1_000_000, 200_000
    rng = np.random.default_rng(11)
    src = random_data(rng, np.float64, n_src)
    idx = (rng.integers(0, n_src, n) if skew == "uniform"
           else np.minimum(rng.zipf(1.3, n) - 1, n_src - 1)).astype(np.int64)
    page = 4096
    with make_rt_dma(page_size=page, gpu_memory=ring_for((n_src + n) * 8, x, page)) as rt:
        s, out = rt.array(src), rt.empty(n, np.float64)
        rt.kernel(typed(GATHER, np.float64), "gather")(
            grid_for(rt, n), BLOCK, (s, cupy.asarray(idx), out, np.uint64(n)))
        np.testing.assert_array_equal(out.to_numpy(), src[idx])


@pytest.mark.parametrize("x", [0, 4, 8])
def test_random_scatter(make_rt_dma, x):
    import cupy
    n = int(500_000 * make_rt_dma.share)   # nearly every write a page load at x > 0
    rng = np.random.default_rng(12)
    src = random_data(rng, np.int64, n)
    perm = rng.permutation(n).astype(np.int64)
    page = 16384
    with make_rt_dma(page_size=page, gpu_memory=ring_for(2 * n * 8, x, page, floor=16)) as rt:
        s, dst = rt.array(src), rt.zeros(n, np.int64)
        rt.kernel(typed(SCATTER, np.int64), "scatter")(
            grid_for(rt, n), BLOCK, (s, cupy.asarray(perm), dst, np.uint64(n)))
        want = np.zeros(n, np.int64)
        want[perm] = src
        np.testing.assert_array_equal(dst.to_numpy(), want)


@pytest.mark.parametrize("skew", ["uniform", "zipf"])
def test_atomics_many_warps(make_rt_dma, skew):
    import cupy
    nb, n = 100_000, int(300_000 * make_rt_dma.share)   # n atomics; the ring holds a fifth of the arrays
    rng = np.random.default_rng(13)
    bucket = (rng.integers(0, nb, n) if skew == "uniform"
              else np.minimum(rng.zipf(1.2, n) - 1, nb - 1)).astype(np.int64)
    val = rng.integers(-10**6, 10**6, n).astype(np.int32)
    page = 4096
    data = nb * (4 * 4 + 8 + 8)
    with make_rt_dma(page_size=page, gpu_memory=ring_for(data, 4, page)) as rt:
        count = rt.zeros(nb, np.int32)
        lo = rt.array(np.full(nb, np.iinfo(np.int32).max, np.int32))
        hi = rt.array(np.full(nb, np.iinfo(np.int32).min, np.int32))
        sm, fs = rt.zeros(nb, np.int64), rt.zeros(nb, np.float64)
        owner = rt.array(np.full(nb, -1, np.int32))
        rt.kernel(ATOMICS, "atomics")(grid_for(rt, n), BLOCK,
                                      (cupy.asarray(bucket), cupy.asarray(val), np.uint64(n),
                                       count, lo, hi, sm, fs, owner))
        np.testing.assert_array_equal(count.to_numpy(), np.bincount(bucket, minlength=nb))
        want_lo = np.full(nb, np.iinfo(np.int32).max, np.int32)
        np.minimum.at(want_lo, bucket, val)
        want_hi = np.full(nb, np.iinfo(np.int32).min, np.int32)
        np.maximum.at(want_hi, bucket, val)
        np.testing.assert_array_equal(lo.to_numpy(), want_lo)
        np.testing.assert_array_equal(hi.to_numpy(), want_hi)
        want_sum = np.bincount(bucket, weights=val.astype(np.float64), minlength=nb)
        np.testing.assert_array_equal(sm.to_numpy(), want_sum.astype(np.int64))
        np.testing.assert_array_equal(fs.to_numpy(), want_sum)  # integers: exact in float64
        own = owner.to_numpy()
        touched = np.bincount(bucket, minlength=nb) > 0
        assert np.all(own[~touched] == -1)
        # every touched bucket was claimed by exactly one of its own threads
        assert np.all(own[touched] >= 0)
        ok = np.zeros(nb, bool)
        np.logical_or.at(ok, bucket, own[bucket] == (np.arange(n) % 1000003))
        assert np.all(ok[touched])


MIN_MAX = r'''
extern "C" __global__ void min_max(const long long *bucket, dream_ptr<T> val, unsigned long long n,
                                   dream_ptr<T> lo, dream_ptr<T> hi) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x) {
        const T v = val[i];
        lo.atomic_min(bucket[i], v);
        hi.atomic_max(bucket[i], v);
    }
}'''


@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64])
def test_min_max_of_each_element_type(make_rt_dma, dtype):
    # native atomics for the integers (ptr.cuh), a CAS loop for the floats;
    # values over the whole range, so that a signed compare of an unsigned
    # type (or the reverse) would keep the wrong one
    import cupy
    nb, n = 20_000, int(200_000 * make_rt_dma.share)
    rng = np.random.default_rng(19)
    bucket = rng.integers(0, nb, n).astype(np.int64)
    dt = np.dtype(dtype)
    val = (rng.standard_normal(n) * 1e6).astype(dt) if dt.kind == "f" else \
        rng.integers(np.iinfo(dt).min, np.iinfo(dt).max, n, dtype=dt, endpoint=True)
    top, bottom = (np.finfo(dt).max, np.finfo(dt).min) if dt.kind == "f" else (np.iinfo(dt).max, np.iinfo(dt).min)
    page = 4096
    with make_rt_dma(page_size=page, gpu_memory=ring_for((n + 2 * nb) * dt.itemsize, 4, page)) as rt:
        v = rt.array(val)
        lo, hi = rt.array(np.full(nb, top, dt)), rt.array(np.full(nb, bottom, dt))
        rt.kernel(typed(MIN_MAX, dtype), "min_max")(grid_for(rt, n), BLOCK,
                                                   (cupy.asarray(bucket), v, np.uint64(n), lo, hi))
        want_lo, want_hi = np.full(nb, top, dt), np.full(nb, bottom, dt)
        np.minimum.at(want_lo, bucket, val)
        np.maximum.at(want_hi, bucket, val)
        np.testing.assert_array_equal(lo.to_numpy(), want_lo)
        np.testing.assert_array_equal(hi.to_numpy(), want_hi)


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.uint8])
def test_read_modify_write(make_rt, dtype):
    n = 300_000
    rng = np.random.default_rng(14)
    h = random_data(rng, dtype, n)
    page = 4096
    with make_rt(page_size=page, gpu_memory=ring_for(n * np.dtype(dtype).itemsize, 8, page)) as rt:
        a = rt.array(h)
        k = rt.kernel(typed(RMW, dtype), "rmw")
        for _ in range(2):
            k(grid_for(rt, n), BLOCK, (a, np.uint64(n)))
        want = h.copy()
        for _ in range(2):
            want = ((want + dtype(3)) * dtype(2)).astype(dtype)
        np.testing.assert_array_equal(a.to_numpy(), want)


@pytest.mark.parametrize("x", [0, 8])
def test_nd_transpose(make_rt, x):
    f = make_rt.share ** 0.5                    # elements (and page loads) in proportion
    rows, cols = int(777 * f), int(1031 * f)    # no page multiple: rows cross pages
    rng = np.random.default_rng(15)
    h = random_data(rng, np.float32, rows * cols).reshape(rows, cols)
    page = 4096
    with make_rt(page_size=page, gpu_memory=ring_for(2 * h.nbytes, x, page, floor=16)) as rt:
        a = rt.array(h)
        t = rt.empty((cols, rows), np.float32)
        assert a.shape == (rows, cols) and len(a) == rows and a.ndim == 2
        rt.kernel(typed(TRANSPOSE, np.float32), "transpose")(
            grid_for(rt, h.size), BLOCK, (a, t, np.uint64(rows), np.uint64(cols)))
        out = t.to_numpy()
        assert out.shape == (cols, rows)
        np.testing.assert_array_equal(out, h.T)


def test_writeback_after_eviction(make_rt_dma):
    import cupy
    n = 200_000
    page = 4096
    rng = np.random.default_rng(16)
    h = random_data(rng, np.int32, n)
    big = random_data(rng, np.int32, 4 * n)
    with make_rt_dma(page_size=page, gpu_memory=ring_for(n * 4, 1, page)) as rt:
        a = rt.zeros(n, np.int32)
        src, other = rt.array(h), rt.array(big)
        copy = rt.kernel(typed(VADD, np.int32), "vadd")
        zero = rt.zeros(n, np.int32)
        copy(grid_for(rt, n), BLOCK, (src, zero, a, np.uint64(n)))   # a = h, dirty
        rt.reset_stats()
        s_other = rt.kernel(typed(SUM, np.int32), "total")
        out = cupy.zeros(1, np.uint64)
        s_other(grid_for(rt, 4 * n), BLOCK, (other, np.uint64(4 * n), out))  # evicts a
        assert rt.stats().writebacks > 0  # a's dirty pages left the ring
        out[:] = 0
        s_other(grid_for(rt, n), BLOCK, (a, np.uint64(n), out))  # re-read a from the backing
        assert int(out.get()[0]) == int(h.astype(np.uint64).sum())
        np.testing.assert_array_equal(a.to_numpy(), h)


LONE = r'''
extern "C" __global__ void lone(dream_ptr<long long> a, unsigned long long n, unsigned long long per,
                                unsigned long long step, long long *out) {
    const unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (threadIdx.x % 32 == 31)
        return; /* the warp's other lanes are divergent: each faults as a group of its own */
    long long s = 0;
    for (unsigned long long k = 0; k < per; k++)
        s += a[(t * per + k) * step % n];
    out[t] = s;
}'''


@pytest.mark.parametrize("x", [0, 4])
@pytest.mark.parametrize("page_kib", [4, 64])
def test_divergent_lanes_fault_pages_of_their_own(make_rt, x, page_kib):
    # every lane but one of each warp reads 32 elements far apart: lone lanes
    # load their pages (direct: through the TMA's staging slots, whose
    # 4 KiB pieces make a 64 KiB page in 16 turns), exact under eviction
    import cupy
    page = page_kib << 10
    n = 2_000_003
    h = np.random.default_rng(page_kib + x).integers(-(1 << 40), 1 << 40, n, dtype=np.int64)
    per, step = 32, 1_236_069  # about n / golden ratio: every page touched
    with make_rt(page_size=page, gpu_memory=ring_for(n * 8, x, page)) as rt:
        a = rt.array(h)
        grid = min(32, grid_for(rt, n))
        out = cupy.zeros(grid * BLOCK, np.int64)
        rt.kernel(LONE, "lone")(grid, BLOCK, (a, np.uint64(n), np.uint64(per), np.uint64(step), out))
        t = np.arange(grid * BLOCK, dtype=np.uint64)
        idx = ((t[:, None] * per + np.arange(per, dtype=np.uint64)) * np.uint64(step)) % np.uint64(n)
        want = h[idx.astype(np.int64)].sum(axis=1)
        want[t % 32 == 31] = 0
        np.testing.assert_array_equal(out.get(), want)
        s = rt.stats()
        assert s.pages_in > 0 and (x == 0 or s.evictions > 0), s  # x = 4: more pages touched than frames


def test_streaming_read_loads_each_page_once(make_rt):
    import cupy
    n = 1_000_000
    page = 4096
    h = np.random.default_rng(17).integers(0, 100, n).astype(np.int32)
    with make_rt(page_size=page, gpu_memory=ring_for(n * 4, 0, page) + 16 * page) as rt:
        a = rt.array(h)
        out = cupy.zeros(1, np.uint64)
        rt.kernel(typed(SUM, np.int32), "total")(grid_for(rt, n), BLOCK, (a, np.uint64(n), out))
        assert int(out.get()[0]) == int(h.sum())
        s = rt.stats()
        assert s.pages_in == a.n_pages
        assert s.evictions == 0 and s.writebacks == 0
        assert s.bytes_in == a.n_pages * page
        # every fault was a load or served by another warp's load; the other
        # loads were read ahead of a fault (grid-stride warps: a stride of a
        # few pages) or gathered (none here: a warp's access is on one page)
        assert s.faults == s.pages_in - s.ahead - s.gathered + s.coalesced
        # a second pass finds everything resident: no fault, no retry
        rt.reset_stats()
        rt.kernel(typed(SUM, np.int32), "total")(grid_for(rt, n), BLOCK, (a, np.uint64(n), out))
        assert int(out.get()[0]) == 2 * int(h.sum())
        s = rt.stats()
        assert s.pages_in == 0 and s.faults == 0 and s.retries == 0


def test_a_pointer_carries_its_arrays_backing(make_rt):
    # abi.h dream_ptr_abi.backing: direct's early start takes a page's address
    # from the kernel argument's copy of the array's backing, not from its
    # descriptor; both must name the same store, for every array (on direct
    # a pinned host address of each array's own; nvme's arrays each start
    # at offset 0 of a namespace of their own)
    from dream.runtime import abi
    with make_rt(page_size=4096, gpu_memory=64 * 4096) as rt:
        arrs = [rt.array(np.arange(1000 * (k + 1), dtype=np.int32)) for k in range(3)]
        descs = np.frombuffer(rt._descs.get().tobytes(), abi.ARRAY_DESC)
        got = [np.frombuffer(a.kernel_arg(rt._launch_flags(1)), abi.PTR_ARG)[0]["abi"]["backing"] for a in arrs]
        assert got == [descs[a.slot]["backing"] for a in arrs]
        if rt.backend_name == "direct":
            assert 0 not in got and len(set(got)) == len(arrs)


def test_no_eviction_mode_when_the_ring_holds_every_page(make_rt):
    # O6 (fault.cuh): set per launch while the ring has a frame for every page
    # of every array; faults then take only free frames, even after an array's
    # pages were dropped in the middle of the ring (free frames behind the cursor)
    from dream.runtime import abi
    import cupy
    page, n = 4096, 300_000
    pages = -(-n * 4 // page)
    h = np.arange(n, dtype=np.int32)
    from dream.runtime.kernel import GENERAL, NO_EVICT, RESIDENT
    with make_rt(page_size=page, gpu_memory=3 * pages * page) as rt:
        flags = lambda arr: np.frombuffer(arr.kernel_arg(rt._launch_flags(1)), abi.PTR_ARG)[0]["abi"]["flags"] & abi.PTR_NO_EVICT
        a, b = rt.array(h), rt.array(2 * h)
        assert flags(a) == abi.PTR_NO_EVICT
        out = cupy.zeros(1, np.uint64)
        total = rt.kernel(typed(SUM, np.int32), "total")
        build = lambda arr: total._pack((arr, np.uint64(n), out), 1)[1]   # kernel.py: the build a launch takes
        for arr, want, takes in ((a, h, NO_EVICT), (b, 2 * h, NO_EVICT), (a, h, RESIDENT)):
            assert build(arr) == takes
            out.fill(0)
            total(grid_for(rt, n), BLOCK, (arr, np.uint64(n), out))
            assert int(out.get()[0]) == int(want.sum())
        # each page was loaded into its home (abi.h DREAM_ARRAY_HOME), and the
        # third launch read a's pages there without loading any
        for arr in (a, b):
            home = rt._home(arr.slot)
            owners = rt._owner[home:home + pages].get()
            np.testing.assert_array_equal(owners, (arr.slot << abi.OWNER_PAGE_BITS) + np.arange(pages, dtype=np.uint64))
        a.copy_from(3 * h)                     # a's frames freed, b's stay: a hole before the cursor
        c = rt.array(4 * h)                    # three arrays in a ring of three arrays' pages
        rt.reset_stats()
        for arr, want in ((a, 3 * h), (c, 4 * h), (b, 2 * h)):
            out.fill(0)
            total(grid_for(rt, n), BLOCK, (arr, np.uint64(n), out))
            assert int(out.get()[0]) == int(want.sum())
        assert rt.stats().evictions == 0
        d = rt.array(h)                        # now more pages than frames: the usual protocol
        assert flags(d) == 0 and flags(a) == 0
        assert build(a) == build(d) == GENERAL


NO_EVICT_RW = r'''
extern "C" __global__ void rw(dream_ptr<int> a, unsigned long long n, unsigned long long chunk) {
    const unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    for (unsigned long long i = t * chunk; i < n && i < (t + 1) * chunk; i++) {
        const int v = a[i];     // the hint: a read's, for i's page
        a[i] = v + 1;           // a write through a read's hint marks the page dirty
        a[i] += 2;
        a.atomic_add(i, 4);
    }
}'''


def test_no_eviction_writes_reach_the_backing_store(make_rt):
    # O6 writes and atomics go to the frame in place; each thread's first
    # write to a page, also after a read of it, must mark the frame dirty or
    # the flush would drop it. Chunks of 1.5 pages: hints cross page edges.
    import cupy
    page = 4096
    n, chunk = 200_000, 1536
    h = np.arange(n, dtype=np.int32)
    with make_rt(page_size=page, gpu_memory=2 * (-(-n * 4 // page)) * page) as rt:
        from dream.runtime import abi
        a = rt.array(h)
        assert rt._launch_flags(1) & abi.PTR_NO_EVICT
        threads = -(-n // chunk)
        rw = rt.kernel(NO_EVICT_RW, "rw")
        rw(-(-threads // BLOCK), BLOCK, (a, np.uint64(n), np.uint64(chunk)))
        assert rt.stats().evictions == 0
        np.testing.assert_array_equal(a.to_numpy(), h + 7)
        # every page is at home now: the resident build (O7) writes in place
        # and marks each thread's pages dirty too
        assert a.slot in rt._at_home()
        rw(-(-threads // BLOCK), BLOCK, (a, np.uint64(n), np.uint64(chunk)))
        np.testing.assert_array_equal(a.to_numpy(), h + 14)   # to_numpy flushes the dirty frames
        rt.evict()                             # the next kernel reads the backing store
        assert a.slot not in rt._at_home()
        out = cupy.zeros(1, np.uint64)
        rt.kernel(typed(SUM, np.int32), "total")(grid_for(rt, n), BLOCK, (a, np.uint64(n), out))
        assert int(out.get()[0]) == int((h + 14).sum())


def _check_at_home(rt):
    """The device's count of pages at home (abi.h at_home) against the frames'
    owners: frame home + p owned by page p of the array."""
    from dream.runtime import abi
    owners = rt._owner.get()
    descs = np.frombuffer(rt._descs.get().tobytes(), dtype=abi.ARRAY_DESC)
    for slot, arr in rt._arrays.items():
        home = rt._home(slot)
        if home is None:
            assert int(descs[slot]["at_home"]) == 0
            continue
        want = (slot << abi.OWNER_PAGE_BITS) + np.arange(arr.n_pages, dtype=np.uint64)
        assert int(descs[slot]["at_home"]) == int((owners[home:home + arr.n_pages] == want).sum()), arr.name


def test_at_home_counts_stay_exact(make_rt):
    # O7: the device counts each array's pages at home through loads and
    # evictions of either mode, and the resident build runs only on arrays
    # whose count is full. Four arrays on a ring of three: the fourth has no
    # homes, and evictions take pages out of homes and bring some back there
    import cupy
    page, n = 4096, 100_000
    pages = -(-n * 4 // page)
    h = np.arange(n, dtype=np.int32)
    with make_rt(page_size=page, gpu_memory=3 * pages * page) as rt:
        arrs = [rt.array(h + k, name=f"a{k}") for k in range(4)]
        assert rt._home(arrs[3].slot) is None
        total = rt.kernel(typed(SUM, np.int32), "total")
        out = cupy.zeros(1, np.uint64)

        def run(group):
            for k, arr in group:
                out.fill(0)
                total(grid_for(rt, n), BLOCK, (arr, np.uint64(n), out))
                assert int(out.get()[0]) == int((h + k).sum()), arr.name
            _check_at_home(rt)

        for _ in range(3):
            run(list(enumerate(arrs)))        # the ring cannot hold them: evictions
        assert rt.stats().evictions > 0
        arrs[3].free()                        # now it can: loads go home when it is free
        run(list(enumerate(arrs[:3])))
        rt.evict()
        assert not rt._at_home()
        run(list(enumerate(arrs[:3])))        # every page loaded at home
        assert rt._at_home() == {a.slot for a in arrs[:3]}
        run(list(enumerate(arrs[:3])))        # the resident build


MIXED = r'''
extern "C" __global__ void mix(dream_ptr<int> a, dream_ptr<int> b, unsigned long long n, unsigned long long chunk) {
    const unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    for (unsigned long long i = t * chunk; i < n && i < (t + 1) * chunk; i++) {
        b[i] = a[i] + 2 * b[i];   // b: loaded in this launch; a: read at home
        a[i] += 1;                // written at home: each thread's first write to a page marks it
        a.atomic_add(i, 2);
    }
}'''


def test_arrays_at_home_beside_arrays_that_load(make_rt):
    # O7: in a launch where some arrays are at home and some are not, the
    # no-evict build accesses the ones at home there (DREAM_PTR_AT_HOME) and
    # faults the others in; the writes at home reach the backing store
    import cupy
    from dream.runtime import abi
    from dream.runtime.kernel import NO_EVICT
    page, n, chunk = 4096, 100_000, 1536
    ha, hb = np.arange(n, dtype=np.int32), 3 * np.arange(n, dtype=np.int32)
    with make_rt(page_size=page, gpu_memory=2 * (-(-n * 4 // page)) * page) as rt:
        a, b = rt.array(ha, name="a"), rt.array(hb, name="b")
        out = cupy.zeros(1, np.uint64)
        rt.kernel(typed(SUM, np.int32), "total")(grid_for(rt, n), BLOCK, (a, np.uint64(n), out))
        assert rt._at_home() == {a.slot}
        k = rt.kernel(MIXED, "mix")
        args = (a, b, np.uint64(n), np.uint64(chunk))
        packed, build = k._pack(args, 1)
        assert build == NO_EVICT
        flags = [np.frombuffer(packed[o:o + abi.PTR.itemsize], abi.PTR)[0]["flags"] & abi.PTR_AT_HOME
                 for o, _ in k._params[:2]]
        assert flags == [abi.PTR_AT_HOME, 0]
        threads = -(-n // chunk)
        k(-(-threads // BLOCK), BLOCK, args)
        assert rt.stats().pages_in == 2 * (-(-n * 4 // page))   # a's by total, b's by mix
        want_b = ha + 2 * hb
        np.testing.assert_array_equal(b.to_numpy(), want_b)
        np.testing.assert_array_equal(a.to_numpy(), ha + 3)       # to_numpy flushes the dirty frames
        assert rt._at_home() == {a.slot, b.slot}
        k(-(-threads // BLOCK), BLOCK, args)                       # now the resident build
        np.testing.assert_array_equal(b.to_numpy(), (ha + 3) + 2 * want_b)
        np.testing.assert_array_equal(a.to_numpy(), ha + 6)
        _check_at_home(rt)


PICK = r'''
extern "C" __global__ void pick(dream_ptr<int> y, dream_ptr<int> z, unsigned long long n, unsigned long long *out) {
    const unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    unsigned long long s = 0;
    for (unsigned long long i = t; i < n; i += gridDim.x * (unsigned long long)blockDim.x) {
        dream_ptr<int> &q = (threadIdx.x & 1) ? y : z;   /* a warp's lanes on two arrays */
        s += q[i];
    }
    atomicAdd(out, s);
}'''


def test_a_warp_on_an_array_with_homes_and_one_without(make_rt):
    # a launch that evicts nothing, whose warps' lanes read two arrays in one
    # access: y has homes, z none. O6's lone-fault test (fault.cuh,
    # dream_miss_no_evict) matches the lanes' pages before it looks at either
    # array: a test of z's homes first kept its lanes out of the warp's match
    import cupy
    page, pages = 4096, 100
    n = pages * page // 4
    hy, hz = np.arange(n, dtype=np.int32), 7 - np.arange(int(1.5 * n), dtype=np.int32)
    with make_rt(page_size=page, gpu_memory=3 * pages * page) as rt:
        x = rt.array(np.zeros(n, np.int32), name="x")
        y = rt.array(hy, name="y")
        x.free()                       # free runs of `pages` frames on either side of y's homes
        z = rt.array(hz, name="z")     # 1.5x pages: no run that long, so no homes
        assert rt._home(y.slot) is not None and rt._home(z.slot) is None
        out = cupy.zeros(1, np.uint64)
        k = rt.kernel(PICK, "pick")
        want = int(hy[1::2].astype(np.int64).sum() + hz[:n][0::2].astype(np.int64).sum()) % 2**64
        for _ in range(2):             # cold, then with both arrays resident
            out.fill(0)
            k(8, 128, (y, z, np.uint64(n), out))
            assert int(out.get()[0]) == want
        assert rt.stats().evictions == 0


HOMES_RACE = r"""
extern "C" __global__ void homes_race(dream_ptr<int> y, dream_ptr<int> z, unsigned long long ny,
                                      unsigned long long nz, unsigned yblocks, unsigned long long delay,
                                      unsigned long long step, unsigned long long *bad) {
    unsigned long long wrong = 0;
    if (blockIdx.x < yblocks) {   /* whole warps on one page of y at a time (the serial fault's order),
                                     warp w from w * delay ns on */
        const unsigned long long warps = yblocks * (blockDim.x / 32);
        const unsigned long long w0 = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
        unsigned long long t0, t;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
        do
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        while (t - t0 < w0 * delay);
        for (unsigned long long j = w0; j * 1024 < ny; j += warps) {
            const unsigned long long pg = j * step % (ny / 1024);
            for (unsigned long long i = pg * 1024 + threadIdx.x % 32; i < (pg + 1) * 1024; i += 32)
                wrong += y[i] != (int)i;
        }
    } else {                      /* a thread per element of z */
        const unsigned long long step = (unsigned long long)(gridDim.x - yblocks) * blockDim.x;
        for (unsigned long long i = (blockIdx.x - yblocks) * (unsigned long long)blockDim.x + threadIdx.x;
             i < nz; i += step)
            wrong += z[i] != 7 - (int)i;
    }
    atomicAdd(bad, wrong);
}"""


def test_homes_taken_by_ring_takes_racing_their_pages(make_rt):
    # O6 (fault.cuh O7): frames without a page are taken by CAS of their
    # owner, and a lone fault on direct takes its page's home by that CAS
    # alone, unlocked. Here y has homes at the ring's first frames and z
    # none, on a ring with a frame for each page and no more: z's faults take
    # free frames from the ring, from its first frame on (a new runtime's
    # cursor), so y's homes first, while whole warps of y, starting one
    # after another, fault y's pages into those homes (in the serial
    # fault's order: lone faults, not read ahead). Each frame must be
    # filled by one taker only: every word is checked in the launch and
    # again resident, and each page loads once
    import cupy
    from dream.runtime import abi
    from dream.bench.transfer import serial_step
    page, pages = 4096, 400
    per = page // 4
    displaced = 0
    for _ in range(3):
        with make_rt(page_size=page, gpu_memory=5 * pages * page // 2) as rt:
            y = rt.array(np.arange(pages * per, dtype=np.int32), name="y")           # homes 0 .. 400
            x1 = rt.array(np.zeros(pages * per // 2, np.int32), name="x1")           # 400 .. 600
            w = rt.array(np.zeros(pages * per // 4, np.int32), name="w")             # 600 .. 700
            x2 = rt.array(np.zeros(3 * pages * per // 4, np.int32), name="x2")       # 700 .. 1000
            x1.free()
            x2.free()                  # free runs of 200 and 300 frames
            z = rt.array(7 - np.arange(5 * pages * per // 4, dtype=np.int32), name="z")  # 500 pages: no homes
            assert rt._home(y.slot) == 0 and rt._home(w.slot) is not None and rt._home(z.slot) is None
            k = rt.kernel(HOMES_RACE, "homes_race")
            bad = cupy.zeros(1, np.uint64)
            for cold in (True, False):
                k(32, 128, (y, z, np.uint64(y.size), np.uint64(z.size), np.uint32(8), np.uint64(500),
                            np.uint64(serial_step(pages)), bad))
                assert int(bad.get()[0]) == 0, cold
            s = rt.stats()
            assert s.pages_in == y.n_pages + z.n_pages and s.evictions == 0, s
            _check_at_home(rt)
            owners = rt._owner.get()[:y.n_pages]
            displaced += int((owners >> np.uint64(abi.OWNER_PAGE_BITS) != y.slot).sum())
    assert displaced > 0, "z's faults never took a home of y: the race was not made"


COLUMNS = r'''
extern "C" __global__ void cols(dream_ptr<int> m, unsigned long long rows, unsigned long long ncols,
                                int up, long long *out) {
    const unsigned long long j = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (j >= ncols) return;
    long long s = 0;
    for (unsigned long long r = 0; r < rows; r++)
        s += m[(up ? rows - 1 - r : r) * ncols + j];
    out[j] = s;
}'''


def test_column_walks_read_ahead(make_rt):
    # O6 read-ahead: warps walking columns of a row-major matrix fault a page
    # and load the next DREAM_AHEAD_MAX rows' pages (down, then up the columns);
    # every page loads once, none past either end, and the sums are exact
    import cupy
    page, rows, ncols = 4096, 600, 3 * 1024 + 512   # 3.5 pages a row: strides of 3 and 4 pages
    m = np.arange(rows * ncols, dtype=np.int32).reshape(rows, ncols) % 1000
    pages = -(-m.nbytes // page)
    with make_rt(page_size=page, gpu_memory=(pages + 8) * page) as rt:
        a = rt.array(m.reshape(-1))
        k = rt.kernel(COLUMNS, "cols")
        out = cupy.zeros(ncols, np.int64)
        for up in (0, 1):
            rt.evict()
            rt.reset_stats()
            k(-(-ncols // BLOCK), BLOCK, (a, np.uint64(rows), np.uint64(ncols), np.int32(up), out))
            np.testing.assert_array_equal(out.get(), m.sum(axis=0))
            st = rt.stats()
            assert st.pages_in == pages and st.ahead > pages // 2, st
            _check_at_home(rt)


def test_a_column_walk_reads_ahead_of_its_warps(make_rt):
    # Read-ahead marks (fault.cuh): 32 warps walk one column of pages, in a
    # launch that evicts nothing and in one through an eighth of the data.
    # They fault at the top; from then on the first page of each window read
    # ahead starts the read of a window further on as they reach it. Without
    # the marks they all waited for a fault at the end of each read window,
    # one or more every 4 windows (ATAX's column kernel, cold: 31 -> 21.5 ms,
    # H200)
    import cupy
    page, rows, ncols = 4096, 4096, 1024    # a page a row
    m = (np.arange(rows * ncols, dtype=np.int64) * 7919 % 100_003).astype(np.int32).reshape(rows, ncols)
    pages = rows
    for frames in (pages + 8, pages // 8):
        with make_rt(page_size=page, gpu_memory=frames * page) as rt:
            a = rt.array(m.reshape(-1))
            k = rt.kernel(COLUMNS, "cols")
            out = cupy.zeros(ncols, np.int64)
            k(-(-ncols // BLOCK), BLOCK, (a, np.uint64(rows), np.uint64(ncols), np.int32(0), out))
            np.testing.assert_array_equal(out.get(), m.sum(axis=0, dtype=np.int64))
            st = rt.stats()
            assert st.pages_in == pages and st.ahead > pages * 9 // 10, st
            assert st.faults - st.coalesced <= 8, st   # faults that loaded their own page


SEQUENCE = r'''
extern "C" __global__ void twice(dream_ptr<float> a, dream_ptr<float> b, unsigned long long n) {
    const unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) b[i] = 2.0f * a[i];
}'''


def test_a_thread_per_element_reads_ahead(make_rt):
    # A sequence of warps (fault.cuh, dream_ahead_stride): with a thread per
    # element no thread has a stride of its own, and 32 warps share each
    # 4 KiB page; a whole warp whose page before is loading or was just
    # loaded reads ahead past its own. Each page loads once, nearly all of
    # them ahead of a fault, for the array read and the array written
    import cupy
    page, n = 4096, 4 << 20
    x = (np.arange(n, dtype=np.int64) * 7919 % 100_003).astype(np.float32)
    with make_rt(page_size=page, gpu_memory=2 * n * 4 + 8 * page) as rt:
        a, b = rt.array(x), rt.zeros(n, np.float32)
        pages = a.n_pages + b.n_pages
        rt.kernel(SEQUENCE, "twice")(-(-n // BLOCK), BLOCK, (a, b, np.uint64(n)))
        cupy.cuda.Device().synchronize()
        st = rt.stats()
        np.testing.assert_array_equal(b.to_numpy(), 2 * x)
        assert st.pages_in == pages and st.ahead > pages * 3 // 4, st
        assert st.faults - st.coalesced < pages // 8, st   # faults that loaded their own page


def test_a_scattered_walk_does_not_read_ahead():
    # The transfer benchmark's serial fault: one warp, 2,000 pages in a
    # scattered order, each page's page before visited a few faults after it
    # or 1,997 before (serial_step); the benchmark fails if any page is read
    # ahead
    from dream.bench.transfer import serial_latency
    ns = serial_latency("direct", {}, 4096, np.arange(2000 * 512, dtype=np.uint64))
    assert 0 < ns < 1e6


RACE = r'''
extern "C" __global__ void race(dream_ptr<unsigned long long> a, unsigned long long pages,
                                unsigned long long step, unsigned long long *bad) {
    /* every warp visits the same pages in the same scattered order, each
       page whole; every word holds its own index */
    unsigned long long wrong = 0;
    for (unsigned long long k = 0; k < pages; k++)
        for (unsigned j = threadIdx.x % 32; j < 512; j += 32) {
            const unsigned long long i = (k * step % pages) * 512 + j;
            wrong += a[i] != i;
        }
    atomicAdd(bad, wrong);
}'''


def test_warps_racing_for_lone_pages_read_each_exactly(make_rt):
    # Whole warps faulting one 4 KiB page at a time, in the serial fault's
    # order (no read-ahead): on direct, in a launch that evicts nothing, the
    # winner of each claim loads the page before its home is taken (direct.cuh,
    # early start); the other warps wait for it or find it loaded. Four
    # warps race for each of 2,000 pages, in two launches, the second after
    # the ring was emptied.
    import cupy
    from dream.bench.transfer import serial_step
    pages = 2000
    with make_rt(page_size=4096, gpu_memory=2 * pages * 4096) as rt:
        a = rt.array(np.arange(pages * 512, dtype=np.uint64))
        k = rt.kernel(RACE, "race")
        bad = cupy.zeros(1, np.uint64)
        for launch in range(2):
            rt.evict()
            # the emptied frames still hold last launch's pages: overwrite them,
            # so that a store missing or landing after the publish shows
            cupy.cuda.runtime.memset(rt.frames_ptr, 0xA5, rt.nframes * 4096)
            cupy.cuda.Device().synchronize()
            rt.reset_stats()
            k(1, 128, (a, np.uint64(pages), np.uint64(serial_step(pages)), bad))
            s = rt.stats()
            assert int(bad.get()[0]) == 0, launch
            assert s.pages_in == pages, s  # each page published once
            _check_at_home(rt)


COLUMNS_COPY = r'''
extern "C" __global__ void cols_copy(dream_ptr<int> m, dream_ptr<int> w, unsigned long long rows,
                                     unsigned long long ncols, long long *out) {
    const unsigned long long j = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (j >= ncols) return;
    long long s = 0;
    for (unsigned long long r = 0; r < rows; r++) {
        const int v = m[r * ncols + j];
        w[r * ncols + j] = v + 1;
        s += v;
    }
    out[j] = s;
}

extern "C" __global__ void rows_sum(dream_ptr<int> m, unsigned long long rows, unsigned long long ncols,
                                    long long *out) {
    const unsigned long long r = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (r >= rows) return;
    long long s = 0;
    for (unsigned long long j = 0; j < ncols; j++)
        s += m[r * ncols + j];
    out[r] = s;
}'''


def test_read_ahead_while_evicting(make_rt):
    # A launch that evicts reads ahead d pages when the ring has 2 * (d + 1)
    # frames for each warp it holds, and only for a warp moving as one
    # stream: here warps walk columns (2 pages a row) of m, reading, and of
    # w, writing, through a ring of an eighth of the data, so read-ahead
    # lanes evict pages and write dirty ones back; then each thread walks a
    # row of its own (32 streams a warp): no read-ahead there, but a fault
    # gathers the pages of other rows the warp waits for. On a backend with a
    # share of the work (nvme: 35 s a run at 2,048 rows, H100) half the rows:
    # the ring is then a quarter of the data
    import cupy
    from dream.runtime import abi
    page, rows, ncols = 4096, 2048 if make_rt.share == 1 else 1024, 2048
    m = (np.arange(rows * ncols, dtype=np.int64) * 7919 % 100_003).astype(np.int32).reshape(rows, ncols)
    warps = ncols // 32
    frames = 2 * (8 + 1) * warps + 16
    with make_rt(page_size=page, gpu_memory=frames * page) as rt:
        a, w = rt.array(m.reshape(-1), name="m"), rt.zeros(rows * ncols, np.int32, name="w")
        depth = [rt._launch_flags(n) >> abi.PTR_AHEAD_SHIFT & abi.PTR_AHEAD_MASK for n in (warps, frames // 2)]
        assert not rt._launch_flags(warps) & abi.PTR_NO_EVICT and depth == [8, 0]
        k = rt.kernel(COLUMNS_COPY, "cols_copy")
        out = cupy.zeros(ncols, np.int64)
        rt.reset_stats()
        k(-(-ncols // BLOCK), BLOCK, (a, w, np.uint64(rows), np.uint64(ncols), out))
        np.testing.assert_array_equal(out.get(), m.sum(axis=0, dtype=np.int64))
        st = rt.stats()
        pages = m.nbytes // page
        assert st.ahead > pages // 2 and st.writebacks > 0 and st.evictions > pages, st
        np.testing.assert_array_equal(w.to_numpy().reshape(rows, ncols), m + 1)
        rt.reset_stats()
        sums = cupy.zeros(rows, np.int64)
        k = rt.kernel(COLUMNS_COPY, "rows_sum")
        k(-(-rows // BLOCK), BLOCK, (a, np.uint64(rows), np.uint64(ncols), sums))
        np.testing.assert_array_equal(sums.get(), m.sum(axis=1, dtype=np.int64))
        st = rt.stats()
        # gathered: a warp's fault also loads up to 8 of the other rows' pages
        assert st.ahead == 0 and st.gathered > st.pages_in // 2 and st.evictions > 0, st


def test_no_eviction_reads_pages_of_this_launch_and_earlier_ones(make_rt):
    # O6 reads every entry relaxed: in launches 0 and 20 (after an eviction)
    # each page is loaded by one warp and read by others in the same launch
    # (ordered by the address alone), in the others an earlier launch loaded
    # it. Its last 130 pages are never read, nor read ahead (at most 4
    # windows of 31 pages past a fault), so the array is never all at home
    # (O7, which reads no entry)
    import cupy
    page = 4096
    m = 48 * page // 4
    n = m + 130 * page // 4
    h = np.arange(n, dtype=np.int32)
    with make_rt(page_size=page, gpu_memory=2 * (-(-n * 4 // page)) * page) as rt:
        a = rt.array(h)
        total = rt.kernel(typed(SUM, np.int32), "total")
        out = cupy.zeros(1, np.uint64)
        for k in range(40):
            if k in (0, 20):
                rt.evict()
            out.fill(0)
            total(grid_for(rt, m), BLOCK, (a, np.uint64(m), out))
            assert int(out.get()[0]) == int(h[:m].sum()), f"launch {k}"
            assert a.slot not in rt._at_home()


RANDOM_BESIDE_STREAM = r'''
extern "C" __global__ void rand_rw(dream_ptr<int> a, dream_ptr<int> w, dream_ptr<int> big, unsigned long long n,
                                   unsigned long long nbig, unsigned rounds, long long *out) {
    const unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    unsigned x = (unsigned)t * 2654435761u + 12345u;
    long long s = 0;
    for (unsigned r = 0; r < rounds; r++) {
        x = x * 1664525u + 1013904223u;
        s += a[x % n];
        w.atomic_add((x >> 7) % n, 1);
        s += big[(t * rounds + r) % nbig];
    }
    out[t] = s;
}'''


def test_random_reads_and_atomics_beside_a_stream_in_a_cold_launch(make_rt):
    # O6: a and w (64 pages) are loaded early in this cold launch while big
    # loads throughout it; each thread reads a and adds to w at random, its
    # one hint per array missing nearly every time (fault.cuh, O6: the entry
    # read at CTA scope). Every read must see the loaded data and every add
    # must reach the backing store (each page marked dirty by its first write)
    import cupy
    page, n, nbig, rounds, threads = 4096, 64 * 1024, 2000 * 1024, 512, 4096
    h = np.arange(n, dtype=np.int32) * 3 + 1
    hb = np.arange(nbig, dtype=np.int32) % 1000
    with make_rt(page_size=page, gpu_memory=(2 * n + nbig) * 4 + 64 * page) as rt:
        a, w, big = rt.array(h), rt.zeros(n, np.int32), rt.array(hb)
        out = cupy.zeros(threads, np.int64)
        rt.kernel(RANDOM_BESIDE_STREAM, "rand_rw")(threads // BLOCK, BLOCK, (a, w, big, np.uint64(n), np.uint64(nbig),
                                                                            np.uint32(rounds), out))
        t = np.arange(threads, dtype=np.uint64)
        x = (t * 2654435761 + 12345) % 2**32
        want, counts = np.zeros(threads, np.int64), np.zeros(n, np.int64)
        for r in range(rounds):
            x = (x * 1664525 + 1013904223) % 2**32
            want += h[x % n] + hb[(t * rounds + r) % nbig]
            counts += np.bincount(((x >> 7) % n).astype(np.int64), minlength=n)
        np.testing.assert_array_equal(out.get(), want)
        np.testing.assert_array_equal(w.to_numpy(), counts)
        assert {a.slot, w.slot} <= rt._at_home()
        assert rt.stats().evictions == 0


WHOLE = r"""
__device__ unsigned mix(unsigned x) { x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; return x; }
extern "C" __global__ void whole(dream_ptr<int> a, dream_ptr<int> w, dream_ptr<int> v, dream_ptr<int> v_write,
                                 dream_ptr<int> v_rw, unsigned rounds, unsigned *arrived, long long *out) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, threads = gridDim.x * blockDim.x, per = 1024;
    const unsigned na = (unsigned)a.size(), nw = (unsigned)w.size(), nv = (unsigned)v.size();
    long long s = 0;
    for (unsigned r = 0; r < rounds; r++)         /* every page of a, w and v loaded, by someone */
        s += a[mix(t * 7919u + r) % na] + w[mix(t * 104729u + r) % nw] + v[mix(t * 31337u + r) % nv];
    /* all blocks are resident: wait for each other (at most ~2 s; arrived[1]
       counts the waits that ran out). The fence orders this thread's counts
       of pages at home before its arrival; the acquire loads (which empty
       this SM's L1 on sm_90) then leave no stale count there */
    __threadfence();
    atomicAdd(arrived, 1u);
    for (const long long c0 = clock64();;) {
        unsigned n;
        asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(n) : "l"(arrived) : "memory");
        if (n == threads)
            break;
        if (clock64() - c0 > (1ll << 32)) {
            atomicAdd(arrived + 1, 1u);
            break;
        }
    }
    /* v_write and v_rw (v again, their hints new): one write each to a page
       only this thread writes, the first through a copy that finds v whole
       on that write, the second on a read before it */
    v_write[(unsigned long long)t * per + 3] += 5;
    s += v_rw[(unsigned long long)(threads + t) * per + 1];
    v_rw[(unsigned long long)(threads + t) * per + 2] = 7;
    for (unsigned r = 0; r < rounds; r++) {       /* all whole now: home, no entry */
        w[(unsigned long long)((r & 1) ? threads + t : t) * per + r % per] += (int)r + 1;  /* pages only t writes */
        s += a[mix(t * 31u + r) % na];
    }
    out[t] = s;
}"""


def test_an_array_whole_at_home_is_read_there_for_the_rest_of_the_launch(make_rt):
    # O6 with homes (fault.cuh O8): a, w and v load in this launch; once
    # every page of one is VALID at home, an access that misses its hint
    # finds it whole and its dream_ptr copy goes home from then on, reading
    # pages other threads loaded and writing pages only it writes. Each
    # write must mark its page dirty, or the flush drops it: w's alternate
    # two pages a thread (a mark on every move), v's are one write a page,
    # made where the copy switches (v_write) or after it switched on a read
    # (v_rw). Every copy's first access after the wait switches (stats().whole)
    import cupy
    threads, rounds, per = 1024, 64, 1024
    rng = np.random.default_rng(7)
    ha = rng.integers(-1000, 1000, 512 * per, dtype=np.int32)
    hw = rng.integers(-1000, 1000, 2 * threads * per, dtype=np.int32)
    hv = rng.integers(-1000, 1000, 2 * threads * per, dtype=np.int32)
    with make_rt(page_size=4096, gpu_memory=2 * (ha.nbytes + hw.nbytes + hv.nbytes)) as rt:
        from dream.runtime import abi
        a, w, v = rt.array(ha), rt.array(hw), rt.array(hv)
        assert rt._launch_flags(1) & abi.PTR_NO_EVICT and None not in [rt._home(x.slot) for x in (a, w, v)]
        arrived, out = cupy.zeros(2, np.uint32), cupy.zeros(threads, np.int64)
        rt.kernel(WHOLE, "whole")(threads // BLOCK, BLOCK, (a, w, v, v, v, np.uint32(rounds), arrived, out))
        assert int(arrived.get()[1]) == 0, "the blocks did not all wait for each other"

        def mix(x):
            x = np.asarray(x, np.uint64) & 0xFFFFFFFF
            x ^= x >> 16
            x = (x * 0x7FEB352D) & 0xFFFFFFFF
            return x ^ (x >> 15)
        t = np.arange(threads, dtype=np.uint64)
        s, want_w, want_v = np.zeros(threads, np.int64), hw.astype(np.int64), hv.astype(np.int64)
        for r in range(rounds):
            s += ha[mix(t * 7919 + r) % ha.size] + hw[mix(t * 104729 + r) % hw.size] + hv[mix(t * 31337 + r) % hv.size]
        want_v[t * per + 3] += 5
        s += hv[(threads + t) * per + 1]
        want_v[(threads + t) * per + 2] = 7
        for r in range(rounds):
            want_w[((threads + t) if r & 1 else t) * per + r % per] += r + 1
            s += ha[mix(t * 31 + r) % ha.size]
        np.testing.assert_array_equal(out.get(), s)
        np.testing.assert_array_equal(w.to_numpy(), want_w.astype(np.int32))
        np.testing.assert_array_equal(v.to_numpy(), want_v.astype(np.int32))
        st = rt.stats()
        assert st.evictions == 0 and st.whole >= 2 * threads, st   # v_write's and v_rw's copies, at least


def test_out_of_bounds_raises_named_error(make_rt):
    src = r'''extern "C" __global__ void oob(dream_ptr<float> a, long long i) {
        if (threadIdx.x == 5 && blockIdx.x == 1) a[i] = 1.0f; }'''
    with make_rt(page_size=4096, gpu_memory="4MiB") as rt:
        a = rt.array(np.arange(1000, dtype=np.float32), name="weights")
        k = rt.kernel(src, "oob")
        with pytest.raises(dream.OutOfBoundsError, match=r"index 1000 .*'weights'.*block \(1, 0, 0\) thread \(5, 0, 0\)"):
            k(2, 32, (a, np.int64(1000)))
        with pytest.raises(dream.OutOfBoundsError, match="index -1 "):
            k(2, 32, (a, np.int64(-1)))
        np.testing.assert_array_equal(a.to_numpy(), np.arange(1000, dtype=np.float32))
        k(2, 32, (a, np.int64(999)))  # the runtime stays usable after the error
        assert a.to_numpy()[999] == 1.0
        assert a.slot in rt._at_home()   # now the resident build (fault.cuh, O7) runs: its check too
        with pytest.raises(dream.OutOfBoundsError, match=r"index 1000 .*block \(1, 0, 0\) thread \(5, 0, 0\)"):
            k(2, 32, (a, np.int64(1000)))
        with pytest.raises(dream.OutOfBoundsError, match="index -1 "):
            k(2, 32, (a, np.int64(-1)))
        # four threads fail together: one of them is named, whole
        with pytest.raises(dream.OutOfBoundsError, match=r"block \(1, [01], 0\) thread \(5, [01], 0\)"):
            k((2, 2), (32, 2), (a, np.int64(1000)))
        k(2, 32, (a, np.int64(998)))  # and the record was cleared
        assert a.to_numpy()[998] == 1.0


@pytest.mark.parametrize("index", ["long long", "int"])
def test_out_of_bounds_read_at_home_returns_zero_and_names_it(make_rt, index):
    # a read that fails its check at home (the resident build: no entry, no
    # slow path) returns T() and names the failure; the other tests of this
    # build write or read with the wrong type. A signed 32-bit index is
    # checked in 32 bits there (fault.cuh dream_read): a negative one too
    import cupy
    src = r'''extern "C" __global__ void rd(dream_ptr<float> a, INDEX i, float *out) {
        if (threadIdx.x == 3 && blockIdx.x == 1) *out = a[i]; }'''.replace("INDEX", index)
    box = np.int64 if index == "long long" else np.int32
    out = cupy.full(1, -5, np.float32)
    with make_rt(page_size=4096, gpu_memory="4MiB") as rt:
        a = rt.array(np.arange(1, 1001, dtype=np.float32), name="ones_up")
        k = rt.kernel(src, "rd")
        k(2, 32, (a, box(999), out))
        assert out.get()[0] == 1000.0
        assert a.slot in rt._at_home()   # the resident build runs from here
        for i in (1000, -1, 1 << 40, -(1 << 31)) if index == "long long" else (1000, -1, -(1 << 31), (1 << 31) - 1):
            out.fill(-5)
            with pytest.raises(dream.OutOfBoundsError, match=rf"index {i} .*'ones_up'.*block \(1, 0, 0\) thread \(3, 0, 0\)"):
                k(2, 32, (a, box(i), out))
            assert out.get()[0] == 0.0   # T(): no element of the array is 0
        k(2, 32, (a, box(0), out))
        assert out.get()[0] == 1.0


READ_ONLY = r'''extern "C" __global__ void gather(dream_ptr<const float> a, dream_ptr<const int> idx,
                                         dream_ptr<float> b, unsigned long long n, float add) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x) {
        dream_span<const float> s(a);
        b[i] = a[idx[i]] + s[i] + add;
    }
}'''


@pytest.mark.parametrize("x", [0, 4])
def test_read_only_dream_ptrs_read_right(make_rt, x):
    # dream_ptr<const T> (ptr.cuh), as public kernels declare their inputs
    # const T *: a gather and a span through read-only arguments, in a launch
    # that evicts (x = 4: the general build), in one that loads every page
    # (the no-evict build) and in one with every page at home (resident)
    n = 300_000
    rng = np.random.default_rng(x + 11)
    ha, hi = random_data(rng, np.float32, n), rng.integers(0, n, n, dtype=np.int32)
    with make_rt(page_size=4096, gpu_memory=ring_for(3 * n * 4, x, 4096) if x else "8MiB") as rt:
        a, idx, b = rt.array(ha), rt.array(hi), rt.empty(n, np.float32)
        k = rt.kernel(READ_ONLY, "gather")
        for add in range(1 if x else 2):
            k(grid_for(rt, n), BLOCK, (a, idx, b, np.uint64(n), np.float32(add)))
            np.testing.assert_array_equal(b.to_numpy(), ha[hi] + ha + np.float32(add))
        if x:
            assert rt.stats().evictions > 0
        else:
            assert {a.slot, idx.slot, b.slot} <= set(rt._at_home())
        np.testing.assert_array_equal(a.to_numpy(), ha)


SHARED_PTR = r'''
/* each thread reads and writes through P, one dream_ptr object shared with other threads */
#define ACCESS(P)                                                                                  \
    const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;                        \
    int sum = 0;                                                                                  \
    for (int r = 0; r < rounds; r++) {                                                            \
        const long long i = idx[(t * rounds + r) % (gridDim.x * (long long)blockDim.x)];         \
        sum += P[i];                                                                              \
        P[i] += 0;                                                                                \
    }                                                                                             \
    out[t] = sum;

/* one object for the block: a pattern of plain CUDA */
extern "C" __global__ void shared_ptr(dream_ptr<int> a, const long long *idx, int *out, int rounds) {
    __shared__ dream_ptr<int> s;
    if (threadIdx.x == 0)
        s = a;
    __syncthreads();
    ACCESS(s)
}

/* one object for a cluster of two blocks: the first block's, which the
   second reaches through distributed shared memory (sm_90) */
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_ptr(dream_ptr<int> a, const long long *idx, int *out,
                                                                 int rounds) {
    __shared__ dream_ptr<int> s;
    unsigned rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    if (rank == 0 && threadIdx.x == 0)
        s = a;
    asm volatile("barrier.cluster.arrive; barrier.cluster.wait;" ::: "memory");
    dream_ptr<int> *first;
    asm("mapa.u64 %0, %1, 0;" : "=l"(first) : "l"(&s));
    ACCESS((*first))
    asm volatile("barrier.cluster.arrive; barrier.cluster.wait;" ::: "memory"); /* the first block's s outlives the uses */
}'''


@pytest.mark.parametrize("kernel", ["shared_ptr", "cluster_ptr"])
def test_a_dream_ptr_shared_by_threads_reads_each_element_right(make_rt, kernel):
    # threads sharing one dream_ptr object (in their block's shared memory, or
    # in another block's of their cluster) would race on its hint's range, and
    # an access in a range is unchecked (fault.cuh O6): such an object's
    # accesses take no hint (ptr.cuh dream_ptr::hint). Each thread reads pages
    # other than its neighbours', in a launch that loads them (no-evict build)
    # and in one with every page at home (resident build)
    import cupy
    n, threads, rounds = 1 << 20, 256 * 64, 8
    data = np.arange(n, dtype=np.int32) * 7 + 3
    rng = np.random.default_rng(4)
    idx = rng.integers(0, n, threads, dtype=np.int64)
    want = np.array([sum(int(data[idx[(t * rounds + r) % threads]]) for r in range(rounds)) for t in range(threads)],
                    dtype=np.int64).astype(np.int32)
    with make_rt(page_size=4096, gpu_memory="8MiB") as rt:
        a = rt.array(data)
        k = rt.kernel(SHARED_PTR, kernel)
        out = cupy.zeros(threads, np.int32)
        for _ in range(2):   # the first launch loads the pages; the second finds them all at home
            k(64, 256, (a, cupy.asarray(idx), out, np.int32(rounds)))
            np.testing.assert_array_equal(out.get(), want)
        assert a.slot in rt._at_home()
        np.testing.assert_array_equal(a.to_numpy(), data)


PAST_THE_END = r'''extern "C" __global__ void edge(dream_ptr<float> a, dream_ptr<float> b, long long i, float *out) {
    if (threadIdx.x == 3 && blockIdx.x == 1) {
        out[0] = a[999] + b[0];   /* the copy's hint: a's last page, or all of a */
        a[998] = 7.0f;            /* a write there too */
        out[1] = a[i];
        a[i] = 5.0f;
    }
}'''


def test_an_index_past_the_end_after_one_on_the_last_page_is_refused(make_rt):
    # an access in the hint's range takes no bounds check (fault.cuh, O6), so
    # the range ends at the array's last element, not its last page's: a
    # page's range from an entry (a loads in the launch), and the whole
    # array's (a at home, b not: the no-evict build, O7)
    import cupy
    out = cupy.zeros(2, np.float32)
    with make_rt(page_size=4096, gpu_memory="4MiB") as rt:
        a = rt.array(np.arange(1000, dtype=np.float32), name="ends")   # 1,000 of the page's 1,024 elements
        b = rt.array(np.ones(10, np.float32))
        k = rt.kernel(PAST_THE_END, "edge")
        for at_home in (False, True):
            for i in (1000, 1023, 1 << 40, 997):
                if at_home:
                    b.copy_from(np.ones(10, np.float32))   # b's frames dropped
                    assert a.slot in rt._at_home() and b.slot not in rt._at_home()
                else:
                    a.copy_from(np.arange(1000, dtype=np.float32))
                    assert a.slot not in rt._at_home()
                if i == 997:
                    k(2, 32, (a, b, np.int64(i), out))
                    got = a.to_numpy()
                    assert out.get()[1] == (5.0 if at_home else 997.0) and got[997] == 5.0 and got[998] == 7.0
                    continue
                out.fill(-1)
                with pytest.raises(dream.OutOfBoundsError, match=rf"index {i} .*'ends'.*block \(1, 0, 0\) thread \(3, 0, 0\)"):
                    k(2, 32, (a, b, np.int64(i), out))
                assert out.get()[0] == 1000.0 and out.get()[1] == 0.0   # a[999] + b[0], then T()


def test_out_of_bounds_in_a_kernel_compiled_whole(make_rt):
    # __launch_bounds__ compiles the kernel as one module (compile.py): the
    # resident build's record is that module's own variable
    src = r'''extern "C" __global__ void __launch_bounds__(64) oob(dream_ptr<float> a, long long i) {
        if (threadIdx.x == 7 && blockIdx.x == 2) a[i] = 1.0f; }'''
    with make_rt(page_size=4096, gpu_memory="4MiB") as rt:
        a = rt.array(np.arange(1000, dtype=np.float32), name="whole")
        k = rt.kernel(src, "oob")
        k(3, 64, (a, np.int64(3)))
        assert a.slot in rt._at_home()
        with pytest.raises(dream.OutOfBoundsError, match=r"index 1000 .*'whole'.*block \(2, 0, 0\) thread \(7, 0, 0\)"):
            k(3, 64, (a, np.int64(1000)))
        k(3, 64, (a, np.int64(5)))
        np.testing.assert_array_equal(a.to_numpy()[:6], [0, 1, 2, 1, 4, 1])


def test_element_type_mismatch(make_rt):
    src = r'''extern "C" __global__ void wrong(dream_ptr<double> a, double *out) { *out = a[0]; }
    extern "C" __global__ void right(dream_ptr<float> a, double *out) { *out = a[0]; }'''
    import cupy
    out = cupy.zeros(1, np.float64)
    with make_rt(page_size=4096, gpu_memory="4MiB") as rt:
        a = rt.array(np.zeros(10, np.float32), name="f32")
        with pytest.raises(dream.ElementTypeError, match="sizeof\\(T\\) = 8.*'f32'.*4 bytes"):
            rt.kernel(src, "wrong")(1, 32, (a, out))
        rt.kernel(src, "right")(1, 32, (a, out))   # loads the page: the resident build runs next
        assert a.slot in rt._at_home()
        with pytest.raises(dream.ElementTypeError, match="sizeof\\(T\\) = 8.*'f32'.*4 bytes"):
            rt.kernel(src, "wrong")(1, 32, (a, out))


def test_any_launch_shape_on_a_tiny_ring(make_rt):
    # 256,000 threads on 4 frames: no lane holds a pin while it waits
    # (fault.cuh), so the warps take turns and every access completes
    n = 1 << 18
    rng = np.random.default_rng(18)
    ha, hb = random_data(rng, np.float32, n), random_data(rng, np.float32, n)
    with make_rt(page_size=4096, gpu_memory=4 * 4096) as rt:
        a, b, c = rt.array(ha), rt.array(hb), rt.empty(n, np.float32)
        rt.kernel(typed(VADD, np.float32), "vadd")(1000, 256, (a, b, c, np.uint64(n)))
        np.testing.assert_array_equal(c.to_numpy(), ha + hb)
        assert rt.stats().evictions > 0


def test_frame_wait_ends_in_a_named_timeout(make_rt):
    # breaks rmw's rule on purpose: the function, run under a's pin on the
    # ring's only frame, reads b, whose page needs that frame. The fault's wait
    # for a free frame is bounded: the kernel ends with DreamTimeoutError
    # naming that wait instead of hanging
    src = r'''extern "C" __global__ void nested(dream_ptr<float> a, dream_ptr<float> b) {
        a.rmw(0, [=](float *q) { const float v = b[0]; *q += v; return *q; }); }'''
    with make_rt(page_size=4096, gpu_memory=4096, timeout="2s") as rt:
        a = rt.array(np.ones(1024, np.float32), name="a")
        b = rt.array(np.full(1024, 2, np.float32), name="b")
        k = rt.kernel(src, "nested")
        t0 = time.monotonic()
        with pytest.raises(dream.DreamTimeoutError, match="a free frame in the ring"):
            k(1, 1, (a, b))
        assert time.monotonic() - t0 < 30


DEEP_STACK = r'''extern "C" __global__ void deep(dream_ptr<float> a, float *out, int k) {
    float buf[700];   /* on the stack: 3,320 bytes a thread, the default limit 1,024 */
    for (int j = 0; j < 700; j++) buf[j] = a[(j * 7 + threadIdx.x) % 1000];
    out[threadIdx.x] = buf[(threadIdx.x * k) % 700];
}'''


@pytest.mark.parametrize("backend, options", [("nvme", {}), ("softrnic", {"engine": "host"}), ("softrnic", {})],
                         ids=["nvme", "softrnic-hostengine", "softrnic-gpuengine"])
def test_a_kernel_needing_more_stack_launches_beside_the_copy_kernel(backend, options, tmp_path):
    # a launch of a kernel needing more stack than the context has grows it,
    # after every running kernel has ended: beside a resident kernel (the copy
    # kernel, the soft RNIC's GPU engine), which runs until the launch after
    # it ends, cuLaunchKernel waited out its life (nvme's half of pytest -m
    # gpu stopped there, session 51). Loading the module reserves the stack
    # (cuda.py reserve_stack). A process of its own: the limit only grows
    # within one, and an earlier test may have grown it.
    opts = {**options, **({"directory": str(tmp_path)} if backend == "nvme" else {})}
    code = f'''
import time, numpy as np, cupy, dream
from cuda.bindings import driver
with dream.Runtime(backend={backend!r}, page_size=4096, gpu_memory="1MiB", host_timeout="60s", **{opts!r}) as rt:
    a = rt.array(np.arange(1000, dtype=np.float32))
    k = rt.kernel({DEEP_STACK!r}, "deep")
    print("stack", driver.cuCtxGetLimit(driver.CUlimit.CU_LIMIT_STACK_SIZE)[1])
    out = cupy.zeros(32, np.float32)
    t0 = time.monotonic()
    k(1, 32, (a, out, np.int32(3)))
    print("ran", round(time.monotonic() - t0, 1), *out.get().astype(int))
'''
    r = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, timeout=120)
    lines = dict(line.split(maxsplit=1) for line in r.stdout.splitlines())
    assert "ran" in lines, r.stdout + r.stderr
    assert int(lines["stack"]) >= 3320
    took, *out = lines["ran"].split()
    assert float(took) < 20
    want = [(7 * ((t * 3) % 700) + t) % 1000 for t in range(32)]
    assert list(map(int, out)) == want


def test_a_kernel_that_crashes_ends_the_wait_at_once():
    # cupy's Event.done reads a crashed kernel's error as "not yet", which
    # kept the host's wait until host_timeout (600 s by default); the wait
    # ends at once with the error. A process of its own: the crash ends the
    # CUDA context.
    code = r'''
import time, numpy as np, dream
with dream.Runtime(backend="direct", page_size=4096, gpu_memory="1MiB", host_timeout="60s") as rt:
    a = rt.array(np.zeros(1024, np.float32))
    k = rt.kernel('extern "C" __global__ void crash(dream_ptr<float> a) { asm volatile("trap;"); }', "crash")
    t0 = time.monotonic()
    try:
        k(1, 32, (a,))
    except dream.DeviceError as e:
        print("raised", round(time.monotonic() - t0, 1), e)
    try:
        k(1, 32, (a,))
    except dream.RuntimeClosedError as e:
        print("closed", e)
'''
    r = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, timeout=120)
    lines = r.stdout.splitlines()
    assert lines and lines[0].startswith("raised"), r.stdout + r.stderr
    assert float(lines[0].split()[1]) < 10, r.stdout
    assert "cudaErrorLaunchFailure" in lines[0] and "kernel crash" in lines[0], r.stdout
    assert len(lines) > 1 and lines[1].startswith("closed"), r.stdout + r.stderr


def test_a_timeout_after_another_error_still_closes_the_runtime(make_rt):
    # the launch's first error (out of bounds) is the one raised; the timeout
    # that follows has aborted the device side, whose waits would from then on
    # end at once without a record: the runtime must refuse further work
    src = r'''extern "C" __global__ void nested(dream_ptr<float> a, dream_ptr<float> b) {
        const float x = a[1 << 20];
        a.rmw(0, [=](float *q) { const float v = b[0]; *q += v + x; return *q; }); }'''
    with make_rt(page_size=4096, gpu_memory=4096, timeout="2s") as rt:
        a = rt.array(np.ones(1024, np.float32), name="a")
        b = rt.array(np.full(1024, 2, np.float32), name="b")
        k = rt.kernel(src, "nested")
        with pytest.raises(dream.OutOfBoundsError, match="more error"):
            k(1, 1, (a, b))
        with pytest.raises(dream.RuntimeClosedError, match="timed out"):
            k(1, 1, (a, b))


def test_kernel_argument_errors(make_rt):
    with make_rt(page_size=4096, gpu_memory="4MiB") as rt:
        a = rt.zeros(100, np.float32)
        k = rt.kernel(typed(VADD, np.float32), "vadd")
        with pytest.raises(dream.KernelArgumentError, match="takes 4 argument"):
            k(1, 32, (a, a))
        with pytest.raises(dream.KernelArgumentError, match="argument 3 is int32"):
            k(1, 32, (a, a, a, np.int32(100)))
        with pytest.raises(dream.KernelArgumentError, match="argument 0 packs to 8 bytes"):
            import cupy
            k(1, 32, (cupy.zeros(4), a, a, 100))
        with make_rt(page_size=4096, gpu_memory="4MiB") as rt2:
            b = rt2.zeros(100, np.float32)
            with pytest.raises(dream.KernelArgumentError, match="another Runtime"):
                k(1, 32, (a, b, a, 100))


def test_closed_runtime_refuses(make_rt):
    rt = make_rt(page_size=4096, gpu_memory="4MiB")
    a = rt.zeros(10, np.float32)
    rt.close()
    with pytest.raises(dream.RuntimeClosedError):
        a.to_numpy()
    with pytest.raises(dream.RuntimeClosedError):
        rt.zeros(10)


def test_copy_from_and_free(make_rt):
    import cupy
    n = 200_000
    with make_rt(page_size=4096, gpu_memory="1MiB") as rt:
        a = rt.array(np.ones(n, np.int32))
        out = cupy.zeros(1, np.uint64)
        tot = rt.kernel(typed(SUM, np.int32), "total")
        tot(grid_for(rt, n), BLOCK, (a, np.uint64(n), out))
        assert int(out.get()[0]) == n
        a.copy_from(np.full(n, 2, np.int32))     # resident pages must not be stale
        out[:] = 0
        tot(grid_for(rt, n), BLOCK, (a, np.uint64(n), out))
        assert int(out.get()[0]) == 2 * n
        a.free()
        with pytest.raises(dream.RuntimeClosedError, match="freed"):
            a.to_numpy()
        b = rt.array(np.full(n, 3, np.int32))    # may reuse the slot
        out[:] = 0
        tot(grid_for(rt, n), BLOCK, (b, np.uint64(n), out))
        assert int(out.get()[0]) == 3 * n


@pytest.mark.parametrize("x", [0, 4])
def test_span_reads_and_writes_a_page_per_pin(make_rt, x):
    """dream_span: row sums and an in-place update through plain pointers,
    a read-only span beside it, rows spanning pages at odd offsets, under
    eviction (fewer threads than frames: each holds two spans)."""
    rows, cols = 3001, 777
    rng = np.random.default_rng(18)
    h = rng.integers(-1000, 1000, (rows, cols)).astype(np.int32)
    hb = rng.integers(-1000, 1000, (rows, cols)).astype(np.int32)
    page = 4096
    data = 2 * h.nbytes + rows * 8
    with make_rt(page_size=page, gpu_memory=ring_for(data, x, page) + (64 * page if x == 0 else 0)) as rt:
        a, sums, b = rt.array(h), rt.zeros(rows, np.int64), rt.array(hb)
        k = rt.kernel(SPAN, "rows")
        threads = min(rows, rt.nframes // 4)
        k(-(-threads // BLOCK), BLOCK, (a, sums, b, np.uint64(rows), np.uint64(cols)))
        np.testing.assert_array_equal(sums.to_numpy(),
                                      h.astype(np.int64).sum(axis=1) - hb.astype(np.int64).sum(axis=1))
        np.testing.assert_array_equal(a.to_numpy(), 2 * h + 1)
        np.testing.assert_array_equal(b.to_numpy(), hb)
        if x:
            assert rt.stats().evictions > 0 and rt.stats().writebacks > 0
        else:  # again, every page at home: spans take homes, with no pin (O7), and mark writes there
            assert {a.slot, sums.slot, b.slot} <= rt._at_home()
            before = rt.stats()
            k(-(-threads // BLOCK), BLOCK, (a, sums, b, np.uint64(rows), np.uint64(cols)))
            after = rt.stats()
            assert (after.pages_in, after.faults) == (before.pages_in, before.faults)
            np.testing.assert_array_equal(sums.to_numpy(), (2 * h.astype(np.int64) + 1).sum(axis=1)
                                          - hb.astype(np.int64).sum(axis=1))
            np.testing.assert_array_equal(a.to_numpy(), 2 * (2 * h + 1) + 1)
            np.testing.assert_array_equal(b.to_numpy(), hb)
