"""Kernels and the device runtime compile for Hopper with NVRTC, no GPU
needed, for every backend's device code."""
import pytest

from dream.runtime.backends import all_backends
from dream.runtime.compile import compile_source
from dream import CompileError

SAMPLE = r'''
extern "C" __global__ void sample(dream_ptr<float> a, dream_ptr<double> b, dream_ptr<int> c,
                                  dream_ptr<unsigned char> d, dream_ptr<long long> e,
                                  dream_ptr<float> f, unsigned long long n) {
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) {
        a[i] = a[i] * 2.0f + (float)b[i];
        c.atomic_add(i % 17, 1); c.atomic_min(0, (int)i); c.atomic_max(1, (int)i);
        c.atomic_cas(2, 0, 1); b.atomic_add(3, 1.0); b.atomic_max(4, 2.0);
        d[i] += 1; ++d[i];
        e.atomic_add(0, -1LL); e.atomic_min(1, (long long)i); e.atomic_exch(2, 5LL);
        e.atomic_cas(3, 0LL, 1LL); f.atomic_exch(0, 1.0f); f.atomic_cas(1, 0.0f, 1.0f);
        b.atomic_exch(5, 1.0); b.atomic_cas(6, 0.0, 2.0);
    }
}
'''


@pytest.mark.parametrize("backend", sorted(all_backends()))
@pytest.mark.parametrize("arch", ["sm_90", "compute_90"])
def test_sample_kernel_compiles(backend, arch):
    define = all_backends()[backend].define
    image, lowered = compile_source(SAMPLE, ("sample",), arch, (define,))
    assert lowered == {"sample": "sample"}
    if arch.startswith("sm_"):
        assert image[:4] == b"\x7fELF"
    else:
        assert b".entry sample" in image


@pytest.mark.parametrize("backend", sorted(all_backends()))
def test_span_compiles(backend):
    src = r'''extern "C" __global__ void rows(dream_ptr<int> a, dream_ptr<double> b, int cols) {
        dream_span<int> row(a);
        for (int j = 0; j < cols; j++)
            if (int *q = row.ptr(threadIdx.x * cols + j)) *q += 1;
        dream_span<const double> r(b);
        double s = r[threadIdx.x];
        r.release();
        b[threadIdx.x] = s; }'''
    image, _ = compile_source(src, ("rows",), "sm_90", (all_backends()[backend].define,))
    assert image[:4] == b"\x7fELF"


@pytest.mark.parametrize("backend", sorted(all_backends()))
def test_maintenance_kernel_compiles(backend):
    define = all_backends()[backend].define
    image, lowered = compile_source('#include "dream/maintenance.cuh"\n', ("dream_flush",),
                                    "compute_90", (define,))
    assert b".entry dream_flush" in image


def test_templated_kernel_name_is_lowered():
    src = r'''template <class T> __global__ void fill(dream_ptr<T> a, T v) { a[threadIdx.x] = v; }
              template __global__ void fill<float>(dream_ptr<float>, float);'''
    _, lowered = compile_source(src, ("fill<float>",), "compute_90", ("DREAM_BACKEND_DIRECT",))
    assert lowered["fill<float>"].startswith("_Z")


def test_compile_error_carries_the_log():
    bad = 'extern "C" __global__ void broken(dream_ptr<float> a) { a[0] = undefined_thing; }'
    with pytest.raises(CompileError, match=r"broken\.cu\(1\).*undefined_thing"):
        compile_source(bad, ("broken",), "compute_90", ("DREAM_BACKEND_DIRECT",), (),
                       "broken.cu")


def test_no_backend_is_a_clear_error():
    with pytest.raises(CompileError, match="define DREAM_BACKEND_DIRECT"):
        compile_source("", (), "compute_90", ())
