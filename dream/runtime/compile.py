"""Kernel compilation with NVRTC (cuda.bindings.nvrtc) and linking with
nvJitLink (cuda.bindings.nvjitlink).

Departure from "CuPy for NVRTC kernels": CuPy's RawModule compiles only for
the GPU it finds, so CPU machines (CI) could not check that kernels and the
device headers compile. NVRTC through cuda.bindings compiles for any target
with or without a GPU: one path, tested on both.

A user kernel is built from two relocatable modules linked together
(link_kernel): the kernel, with the slow paths (dream_fault,
dream_fault_lone and dream_access_failed) only declared, and the slow paths
compiled once per backend and options, capped at FAULT_REGISTERS. A kernel's
register count is the maximum over its call graph, so compiled into the
kernel the slow path's registers would set the hit path's (fault.cuh); and a
call the compiler cannot see into does not stop it from unrolling a user's
loop as a warp collective inline does (the resident build has neither: its
failed access is one store, fault.cuh dream_access_ok). The dream headers
therefore define no non-inline __device__ function or variable besides those
three and, in the resident build's kernel module only, dream_resident_failure:
both modules include them, and nvJitLink reports a symbol defined twice but
does not fail on it.

FAULT_REGISTERS = 128 is measured (H100, direct, whole kernels: 154
registers, one 256-thread block per SM): the cap sets two blocks per SM.
At 64 (four blocks) resident vector add ran 6.8x in-memory against 10.5x
at 128, but the fault path spilled and cold vector add took 0.29 s against
0.14 s (0.21 s compiled whole); 80 and 96 fell in between. The kernel's
own module is left uncapped (cc_hook needs 95 registers there): capped
with the slow paths at 64, cold BFS and CC ran 11-13 % faster, their lone
lanes copying through the TMA, but cold vector add, whose warps copy
through registers, 38 % slower (H200, bench/results-h100/session45).
The resident build (launches whose every array is at home, fault.cuh O7)
caps its slow paths at RESIDENT_FAULT_REGISTERS = 32: there the one that
runs reports a wrong index or type, and the cap sets the kernel's count (H100,
direct: resident vector add, one element per thread, needs every warp an
SM holds; it ran 1.0x in-memory at 32). A cap that low in a build that
faults made cold vector add 0.47 s against 0.15-0.17 s: waiting and
copying spill (bench/results-h100/session11/README.md).

The no-evict build (launches that evict nothing, fault.cuh O6) has the
access path without O5's code: a third of the general build's instructions
(cc_hook 3,600 -> 2,440), fewer moves of its hints through each access. The
general build, which then runs only launches that may evict, has O5 alone
(DREAM_EVICT_KERNEL: cc_hook 1,632 instructions). Cold CC's first hook, where
one thread walks 163,060 edges: 193-201 -> 170-179 ms; cold BFS, PolyBench and
vector add unchanged (H200, Kronecker 22, bench/results-h100/session48). It
shares the general build's slow paths, whose 128 registers it runs at: 16
warps an SM in 256-thread blocks, which halves the throughput of cold graph
launches against the resident build's (bench/results-h100/session49)."""
from __future__ import annotations

import concurrent.futures
import functools
import hashlib
import re
from pathlib import Path

from .errors import CompileError

INCLUDE_DIR = Path(__file__).resolve().parent.parent / "cuda" / "include"
PRELUDE = '#include "dream/dream.cuh"\n#line 1 "{name}"\n'
FAULT_REGISTERS = 128
RESIDENT_FAULT_REGISTERS = 32


def _check(result, prog=None):
    from cuda.bindings import nvrtc
    err = result[0]
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise CompileError(f"NVRTC: {nvrtc.nvrtcGetErrorString(err)[1].decode()}")
    return result[1:] if len(result) > 2 else (result[1] if len(result) == 2 else None)


def _log(prog) -> str:
    from cuda.bindings import nvrtc
    _, n = nvrtc.nvrtcGetProgramLogSize(prog)
    buf = b" " * n
    nvrtc.nvrtcGetProgramLog(prog, buf)
    return buf.rstrip(b"\x00 ").decode(errors="replace")


def register_cap(options: tuple) -> tuple:
    """DREAM_REGISTER_CAP=N when `options` cap a build's registers at N
    (--maxrregcount), for the headers that size their work by it
    (direct.cuh, DREAM_COPY_UNROLL); else nothing. A cap set in the source
    (__launch_bounds__, __maxnreg__) is not seen here."""
    for o in options:
        m = re.fullmatch(r"--?maxrregcount[= ](\d+)", o)
        if m:
            return (f"DREAM_REGISTER_CAP={m.group(1)}",)
    return ()


@functools.lru_cache(maxsize=256)
def compile_source(source: str, names: tuple, arch: str, defines: tuple,
                   options: tuple = (), filename: str = "kernel.cu") -> tuple[bytes, dict]:
    """Compiles `source` (dream headers prepended) for `arch` ("sm_90" gives a
    CUBIN, "compute_90" PTX). Returns (image, {name: lowered name})."""
    from cuda.bindings import nvrtc
    src = (PRELUDE.format(name=filename) + source).encode()
    prog = _check(nvrtc.nvrtcCreateProgram(src, filename.encode(), 0, [], []))
    try:
        for n in names:
            _check(nvrtc.nvrtcAddNameExpression(prog, n.encode()))
        opts = [f"--gpu-architecture={arch}", "-std=c++17", f"-I{INCLUDE_DIR}",
                "-default-device", *(f"-D{d}" for d in (*defines, *register_cap(options))), *options]
        err = nvrtc.nvrtcCompileProgram(prog, len(opts), [o.encode() for o in opts])[0]
        if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            raise CompileError(f"kernel {', '.join(names) or filename} did not compile "
                               f"({' '.join(opts)}):\n{_log(prog)}")
        lowered = {n: _check(nvrtc.nvrtcGetLoweredName(prog, n.encode())).decode() for n in names}
        if arch.startswith("sm_"):
            size = _check(nvrtc.nvrtcGetCUBINSize(prog))
            image = b" " * size
            _check(nvrtc.nvrtcGetCUBIN(prog, image))
        else:
            size = _check(nvrtc.nvrtcGetPTXSize(prog))
            image = b" " * size
            _check(nvrtc.nvrtcGetPTX(prog, image))
        return image, lowered
    finally:
        nvrtc.nvrtcDestroyProgram(prog)


def toolchain() -> tuple[bool, str]:
    """(True, "NVRTC x.y, nvJitLink x.y") where kernels can be built here,
    else (False, why)."""
    try:
        from cuda.bindings import nvrtc
        major, minor = _check(nvrtc.nvrtcVersion())
    except Exception as e:
        return False, f"NVRTC is missing ({e}): install cuda-python and the CUDA 13 toolkit"
    try:
        from cuda.bindings import nvjitlink
        link = ".".join(map(str, nvjitlink.version()))
    except Exception as e:   # the library, not the module, is what may be missing
        return False, (f"nvJitLink is missing ({e}): install the nvidia-nvjitlink package "
                       "(a dependency of dream)")
    return True, f"NVRTC {major}.{minor}, nvJitLink {link}"


def _linked(images: list, arch: str) -> bytes:
    ok, why = toolchain()
    if not ok:
        raise CompileError(f"kernels cannot be linked here: {why}")
    from cuda.bindings import nvjitlink
    h = nvjitlink.create(1, [f"-arch={arch}"])
    try:
        for i, image in enumerate(images):
            nvjitlink.add_data(h, nvjitlink.InputType.CUBIN, image, len(image), f"module{i}")
        nvjitlink.complete(h)
        n = nvjitlink.get_linked_cubin_size(h)
        out = bytearray(n)
        nvjitlink.get_linked_cubin(h, out)
        return bytes(out)
    except nvjitlink.nvJitLinkError as e:
        log = bytearray(nvjitlink.get_error_log_size(h))
        nvjitlink.get_error_log(h, log)
        raise CompileError(f"nvJitLink: {e}:\n{log.rstrip(bytes(1)).decode(errors='replace')}") from None
    finally:
        nvjitlink.destroy(h)


# A kernel that sets its own register budget is compiled whole, as one module:
# the separately compiled slow path could not fit a budget below its own.
_WHOLE_SOURCE = ("__launch_bounds__", "__maxnreg__")
_WHOLE_OPTIONS = ("maxrregcount", "-ewp", "--extensible-whole-program")
# what dream_fault's module takes of the kernel's options: debug information
# and the runtime's own macros (other options are about the kernel's code, and
# some, like -include, would define its symbols twice)
_FAULT_OPTIONS = ("-G", "--device-debug", "-lineinfo", "--generate-line-info", "-DDREAM_")


def own_budget(source: str, options: tuple) -> bool:
    """Whether a kernel sets its own register budget (then it is compiled whole)."""
    return any(w in source for w in _WHOLE_SOURCE) or any(w in o for o in options for w in _WHOLE_OPTIONS)


# NVRTC releases the GIL: a kernel's slow paths compile in a thread of this
# pool while its own module compiles in the caller's (compile_source makes no
# call into the pool, so no task waits on another)
_SLOW_PATHS = concurrent.futures.ThreadPoolExecutor(thread_name_prefix="dream-compile")


@functools.lru_cache(maxsize=64)
def _slow_paths(arch: str, defines: tuple, options: tuple) -> concurrent.futures.Future:
    """The slow paths' module, compiling: one compile for the builds of a
    kernel that take the same (the general and no-evict builds, compiled at
    once in two threads)."""
    return _SLOW_PATHS.submit(compile_source, "", (), arch, defines, options, "dream_fault.cu")


# A kernel's builds (fault.cuh): GENERAL for launches that may evict (O5
# only), NO_EVICT for those that evict nothing (O6: no O5), RESIDENT for those
# whose dream arrays are all at home (O7); each its define
GENERAL, NO_EVICT, RESIDENT = "general", "no-evict", "resident"
BUILD_DEFINES = {GENERAL: "DREAM_EVICT_KERNEL", NO_EVICT: "DREAM_NO_EVICT_KERNEL", RESIDENT: "DREAM_RESIDENT_KERNEL"}


@functools.lru_cache(maxsize=256)
def link_kernel(source: str, names: tuple, arch: str, defines: tuple, options: tuple = (),
                filename: str = "kernel.cu", build: str = GENERAL) -> tuple[bytes, dict]:
    """A user kernel for GPU `arch` ("sm_90"): `source` compiled with the
    slow paths declared only, linked to their own module of at most
    FAULT_REGISTERS registers; a kernel with its own register budget
    (launch bounds, --maxrregcount) is compiled whole instead. `build`
    (BUILD_DEFINES) says which launches it runs: RESIDENT's slow paths are
    capped at RESIDENT_FAULT_REGISTERS. The kernel's own module is compiled without
    the backend's define (`defines`' DREAM_BACKEND_*, dream.cuh): it calls
    no transport, so every backend links the same one (the suite's every
    workload on three backends compiled it three times). Returns (CUBIN,
    {name: lowered name})."""
    kdefines = (*defines, BUILD_DEFINES[build])
    if own_budget(source, options):
        return compile_source(source, names, arch, kdefines, options, filename)
    forwarded = tuple(o for o in options if o.startswith(_FAULT_OPTIONS))
    cap = RESIDENT_FAULT_REGISTERS if build == RESIDENT else FAULT_REGISTERS
    fault = _slow_paths(arch, defines, (*forwarded, "-rdc=true", f"--maxrregcount={cap}"))
    own = tuple(d for d in kdefines if not d.startswith("DREAM_BACKEND_"))
    kernel, lowered = compile_source(source, names, arch, (*own, "DREAM_FAULT_LINKED"),
                                     (*options, "-rdc=true"), filename)
    return _linked([kernel, fault.result()[0]], arch), lowered


def source_digest(source: str) -> str:
    return hashlib.sha1(source.encode()).hexdigest()[:12]
