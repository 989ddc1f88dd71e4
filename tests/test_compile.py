"""Kernels and the device runtime compile for Hopper with NVRTC, no GPU
needed, for every backend's device code."""
import re
import struct

import pytest

from dream.runtime.backends import all_backends
from dream.runtime.compile import (FAULT_REGISTERS, GENERAL, NO_EVICT, RESIDENT, compile_source, link_kernel,
                                  register_cap)
from dream import CompileError
from dream.runtime.cuda import EIATTR_MIN_STACK_SIZE, EIATTR_REGCOUNT, cubin_sections, cubin_stack_bytes, nv_info_values

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


SPAN = r'''extern "C" __global__ void rows(dream_ptr<int> a, dream_ptr<double> b, int cols) {
    dream_span<int> row(a);
    for (int j = 0; j < cols; j++)
        if (int *q = row.ptr(threadIdx.x * cols + j)) *q += 1;
    dream_span<const double> r(b);
    double s = r[threadIdx.x];
    r.release();
    b[threadIdx.x] = s; }'''


@pytest.mark.parametrize("backend", sorted(all_backends()))
def test_span_compiles(backend):
    image, _ = compile_source(SPAN, ("rows",), "sm_90", (all_backends()[backend].define,))
    assert image[:4] == b"\x7fELF"


READ_ONLY = r'''extern "C" __global__ void rd(dream_ptr<const float> a, dream_ptr<const int> idx, dream_ptr<float> b,
                                    unsigned long long n) {
    for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        dream_span<const float> s(a);
        b[i] = a[idx[i]] + s[i];
    } }'''


@pytest.mark.parametrize("build", (GENERAL, NO_EVICT, RESIDENT))
def test_a_read_only_dream_ptr_reads_in_every_build(build):
    # dream_ptr<const T>, as public kernels declare their inputs const T *
    image, _ = link_kernel(READ_ONLY, ("rd",), "sm_90", ("DREAM_BACKEND_DIRECT",), build=build)
    assert image[:4] == b"\x7fELF"


@pytest.mark.parametrize("access, says", [
    ("a[i] = 1.0f;", "dream_ptr<const T> is read-only"),
    ("a[i] += 1.0f;", "dream_ptr<const T> is read-only"),
    ("a.atomic_add(i, 1.0f);", "dream_ptr<const T> is read-only"),
    ("dream_span<float> s(a);", "declare it dream_span<const T>"),
])
def test_a_write_through_a_read_only_dream_ptr_does_not_compile(access, says):
    src = ('extern "C" __global__ void wr(dream_ptr<const float> a, unsigned long long i) { ' + access + " }")
    with pytest.raises(CompileError, match=re.escape(says)):
        compile_source(src, ("wr",), "sm_90", ("DREAM_BACKEND_DIRECT",))


NESTED = r'''extern "C" __global__ void nested(dream_ptr<float> a, dream_ptr<float> b, float *out) {
    float buf[300];   /* on the stack, with the frames of the calls the access makes */
    for (int j = 0; j < 300; j++) buf[j] = a[j * 3 + threadIdx.x];
    *out = buf[threadIdx.x % 300] + b[0]; }'''


def test_a_cubins_stack_is_read_from_its_kernels_records():
    # cuda.py cubin_stack_bytes: what a module's load reserves (reserve_stack)
    # so that no launch of it grows the stack beside a running copy kernel
    image, _ = link_kernel(NESTED, ("nested",), "sm_90", ("DREAM_BACKEND_NVME",))
    assert 1200 <= cubin_stack_bytes(image) < 4096
    image, _ = link_kernel(READ_ONLY, ("rd",), "sm_90", ("DREAM_BACKEND_DIRECT",), build=RESIDENT)
    assert cubin_stack_bytes(image) == 0   # no call, no local array
    assert cubin_stack_bytes(b"not an ELF image") == 0
    assert cubin_stack_bytes(b"\x7fELF\x02 but cut short") == 0
    # records of every format, 4-byte aligned: a value-less one (EIFMT_NVAL), a
    # half word (EIFMT_HVAL), then two stack sizes (function symbol, bytes)
    records = (bytes([1, 0x35, 0, 0]) + bytes([3, 0x0a, 7, 0])
               + bytes([4, 0x12, 8, 0]) + struct.pack("<II", 3, 1056)
               + bytes([4, 0x11, 8, 0]) + struct.pack("<II", 3, 9999)
               + bytes([4, 0x12, 8, 0]) + struct.pack("<II", 5, 2000))
    assert max(v for _, v in nv_info_values(records, EIATTR_MIN_STACK_SIZE)) == 2000


@pytest.mark.parametrize("backend", sorted(all_backends()))
def test_maintenance_kernel_compiles(backend):
    define = all_backends()[backend].define
    image, lowered = compile_source('#include "dream/maintenance.cuh"\n', ("dream_flush",),
                                    "compute_90", (define,))
    assert b".entry dream_flush" in image


@pytest.mark.parametrize("backend", ["softrnic", "nvme"])
def test_copy_kernel_compiles(backend):
    """copier.cuh, with its static_assert that the stage has the size copier.h
    gives (the shared memory the runtime asks for)."""
    from dream.runtime import copier
    image, lowered = compile_source(copier.SOURCE, ("dream_copier",), "sm_90",
                                    (all_backends()[backend].define,), (), "copier.cu")
    assert image and lowered == {"dream_copier": "dream_copier"}


def test_softrnic_gpu_engine_compiles():
    """softrnic_engine.cuh with the WQE checks and CQEs of softrnic.h, as the
    GPU engine's launch compiles it."""
    from dream.verbs import gpu_engine
    image, lowered = compile_source(gpu_engine.SOURCE, ("dream_softrnic_serve",), "sm_90",
                                    (all_backends()["softrnic"].define,), (), "dream_softrnic_serve.cu")
    assert image and lowered == {"dream_softrnic_serve": "dream_softrnic_serve"}


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


@pytest.mark.parametrize("source,name", [(SAMPLE, "sample"), (SPAN, "rows")])
def test_a_kernels_own_module_is_the_same_on_every_backend(source, name):
    # link_kernel compiles it once, with no backend (dream.cuh), and links it
    # to each backend's slow paths: it must not differ with the backend
    own = ("DREAM_FAULT_LINKED",)
    ptx, _ = compile_source(source, (name,), "compute_90", own, ("-rdc=true",))
    assert b".entry " + name.encode() in ptx
    for backend, cls in all_backends().items():
        assert compile_source(source, (name,), "compute_90", (cls.define, *own), ("-rdc=true",))[0] == ptx, backend


def test_no_backend_is_a_clear_error():
    with pytest.raises(CompileError, match="define DREAM_BACKEND_DIRECT"):
        compile_source("", (), "compute_90", ())


READ_LOOP = r'''
extern "C" __global__ void read_loop(dream_ptr<float> a, float *out, unsigned long long n) {
    float s = 0;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x)
        s += a[i];
    out[threadIdx.x] = s;
}'''


def _symbol(cubin, i) -> tuple:
    """(name, info, section index) of symbol i."""
    by = cubin_sections(cubin)
    n, info, _, shndx = struct.unpack_from("<IBBH", cubin, by[".symtab"][0] + 24 * i)
    names = by[".strtab"][0] + n
    return cubin[names:cubin.index(b"\0", names)].decode(), info, shndx


def registers(cubin: bytes) -> dict:
    """{function: registers} from a CUBIN's EIATTR_REGCOUNT entries (.nv.info)."""
    off, size = cubin_sections(cubin)[".nv.info"]
    return {_symbol(cubin, sym)[0]: val for sym, val in nv_info_values(cubin[off:off + size], EIATTR_REGCOUNT)}


def global_functions(cubin: bytes) -> list:
    """Functions a CUBIN defines with global (not weak or local) binding."""
    syms = (_symbol(cubin, i) for i in range(cubin_sections(cubin)[".symtab"][1] // 24))
    return [n for n, info, shndx in syms if info == 0x12 and shndx]   # STB_GLOBAL << 4 | STT_FUNC


@pytest.mark.parametrize("backend", sorted(all_backends()))
def test_headers_define_no_function_but_the_slow_paths(backend):
    # both modules of a linked kernel include the headers: a second global
    # definition there is one nvJitLink reports on stderr but does not fail on
    fault, _ = compile_source("", (), "sm_90", (all_backends()[backend].define,), ("-rdc=true",))
    assert sorted(global_functions(fault)) == ["_Z11dream_faultP14dream_rt_state13dream_ptr_abiyjbyibb",
                                               "_Z16dream_fault_lone13dream_ptr_abiyyy",
                                               "_Z19dream_access_failed13dream_ptr_abiyj"]


@pytest.mark.parametrize("backend", sorted(all_backends()))
def test_fault_path_linked_apart_keeps_the_hit_path_small(backend):
    # compiled into the kernel, the slow path sets the kernel's register count
    # (direct: one 256-thread block per SM); linked from its own capped module it does not
    define = all_backends()[backend].define
    whole, _ = compile_source(READ_LOOP, ("read_loop",), "sm_90", (define,))
    linked, lowered = link_kernel(READ_LOOP, ("read_loop",), "sm_90", (define,))
    assert linked[:4] == b"\x7fELF" and lowered == {"read_loop": "read_loop"}
    if backend == "direct":   # the queue backends' whole kernels: 118-120 on NVRTC 13
        assert registers(whole)["read_loop"] > FAULT_REGISTERS
    assert registers(linked)["read_loop"] <= FAULT_REGISTERS
    # the sample kernel (every access kind) links too, with user options
    linked, _ = link_kernel(SAMPLE, ("sample",), "sm_90", (define,), ("-DDREAM_VERIFY", "-lineinfo"))
    assert registers(linked)["sample"] <= FAULT_REGISTERS


@pytest.mark.parametrize("bounds", ["__launch_bounds__(1024)", "__launch_bounds__(512, 4)"])
def test_kernel_with_its_own_register_budget_compiles_whole(bounds):
    # the separate fault module could not fit a budget below its own FAULT_REGISTERS
    src = READ_LOOP.replace("__global__ void", f"__global__ void {bounds}")
    image, _ = link_kernel(src, ("read_loop",), "sm_90", ("DREAM_BACKEND_DIRECT",))
    assert registers(image)["read_loop"] <= 65536 // 1024
    image, _ = link_kernel(READ_LOOP, ("read_loop",), "sm_90", ("DREAM_BACKEND_DIRECT",),
                           ("--maxrregcount=40",))
    assert registers(image)["read_loop"] <= 40


@pytest.mark.parametrize("options, unroll", [((), 8), (("--maxrregcount=128",), 8),
                                             (("--maxrregcount=96",), 4), (("--maxrregcount=64",), 4)])
def test_a_build_capped_below_128_registers_keeps_fewer_loads_in_flight(options, unroll):
    # direct.cuh sizes its copy by the build's cap (compile.py register_cap): with 8
    # loads a lane in flight a build at 64 registers spilled them (vector add 2.3x slower)
    src = f"#if DREAM_COPY_UNROLL != {unroll}\n#error DREAM_COPY_UNROLL\n#endif\n" + READ_LOOP
    compile_source(src, ("read_loop",), "compute_90", ("DREAM_BACKEND_DIRECT",), options)


def test_register_cap_reads_either_spelling():
    assert register_cap(("-lineinfo", "--maxrregcount=64")) == ("DREAM_REGISTER_CAP=64",)
    assert register_cap(("-maxrregcount=80",)) == ("DREAM_REGISTER_CAP=80",)
    assert register_cap(("-DDREAM_VERIFY",)) == ()


ROW_LOOP = r'''
extern "C" __global__ void rows(dream_ptr<float> A, const float *v, float *out, int nx, int ny) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx)
        for (int j = 0; j < ny; j++)
            out[i] += A[(unsigned long long)i * ny + j] * v[j];
}'''
COLLECTIVES = ("vote.", "shfl.", "match.", "bar.warp", "activemask")


@pytest.mark.parametrize("backend", sorted(all_backends()))
def test_resident_build_keeps_no_warp_collective_inline(backend):
    # a warp collective is convergent: one in a user's loop keeps the compiler
    # from unrolling it, and so does a call; the resident build (fault.cuh,
    # O7) records a failed access with one plain store, so the loop unrolls
    # (several store sites) and calls nothing
    define = all_backends()[backend].define
    ptx = {r: compile_source(ROW_LOOP, ("rows",), "compute_90",
                             (define, "DREAM_FAULT_LINKED", *(("DREAM_RESIDENT_KERNEL",) if r else ())),
                             ("-rdc=true",))[0].decode() for r in (False, True)}
    body = {r: p[p.index(".entry rows"):] for r, p in ptx.items()}
    assert any(c in body[False] for c in COLLECTIVES)
    assert not any(c in body[True] for c in COLLECTIVES)
    assert not re.search(r"\bcall", body[True])
    assert body[True].count("[dream_resident_failure]") >= 2


@pytest.mark.parametrize("backend", sorted(all_backends()))
def test_general_and_no_evict_builds_each_drop_the_others_access_path(backend):
    # the no-evict build (DREAM_NO_EVICT_KERNEL, fault.cuh dream_no_evict) runs
    # only launches that evict nothing, the general one (DREAM_EVICT_KERNEL)
    # only launches that may: the no-evict build has no O5 code (a read's
    # entry read twice around the element, the pinned accesses inline), the
    # general one no O6 code (the hint's ranges among it), in a kernel of
    # reads and in one of every access kind; a module built with neither
    # define (the slow paths') has both
    define = all_backends()[backend].define
    for src, name in ((READ_LOOP, "read_loop"), (SAMPLE, "sample")):
        lines = {}
        for build in ((), ("DREAM_EVICT_KERNEL",), ("DREAM_NO_EVICT_KERNEL",)):
            ptx = compile_source(src, (name,), "compute_90", (define, "DREAM_FAULT_LINKED", *build),
                                 ("-rdc=true",))[0].decode()
            lines[build] = len(ptx[ptx.index(f".entry {name}"):].splitlines())
        assert lines[("DREAM_EVICT_KERNEL",)] < 0.95 * lines[()], (name, lines)
        assert lines[("DREAM_NO_EVICT_KERNEL",)] < 0.95 * lines[()], (name, lines)
    for build in (GENERAL, NO_EVICT):
        image, _ = link_kernel(READ_LOOP, ("read_loop",), "sm_90", (define,), build=build)
        assert image[:4] == b"\x7fELF"


MIN_MAX = r'''
extern "C" __global__ void lows(dream_ptr<int> a, dream_ptr<unsigned int> b, dream_ptr<long long> c,
                                dream_ptr<unsigned long long> d, dream_ptr<float> f, unsigned long long n) {
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    a.atomic_min(i % n, (int)i); b.atomic_max(i % n, (unsigned int)i);
    c.atomic_min(i % n, (long long)i); d.atomic_max(i % n, i);
    f.atomic_min(i % n, (float)i);
}'''


@pytest.mark.parametrize("resident", [False, True])
def test_integer_min_max_are_the_native_atomics(resident):
    # CUDA has atomicMin/Max for 32- and 64-bit integers: one atomic (a
    # reduction when the result is unused), not a load and a CAS loop, which
    # made CC's hook 1.5x longer in the resident build (H100, session 30);
    # float, which has none, keeps the CAS loop
    define = all_backends()["direct"].define
    ptx = compile_source(MIN_MAX, ("lows",), "compute_90",
                         (define, *(("DREAM_RESIDENT_KERNEL",) if resident else ())))[0].decode()
    body = ptx[ptx.index(".entry lows"):]
    for op in ("min.s32", "max.u32", "min.s64", "max.u64"):
        assert f"atom.global.{op}" in body or f"red.global.{op}" in body, op
    assert "atom.global.cas.b32" in body   # the float's min
    assert "atom.global.cas.b64" not in body
