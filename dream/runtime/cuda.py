"""The few driver calls the runtime makes through cuda.bindings, each checked:
GPU discovery, module load (with the stack its kernels need), parameter
layout, occupancy, launch, and a bounded wait for a stream."""
from __future__ import annotations

import struct
import time
from dataclasses import dataclass

import numpy as np

from .errors import DeviceError, DreamTimeoutError, NoDeviceError


def check(result, what: str):
    """Unwraps a cuda.bindings (err, *values) tuple, raising on error."""
    from cuda.bindings import driver
    err = result[0]
    if err != driver.CUresult.CUDA_SUCCESS:
        name = driver.cuGetErrorName(err)[1]
        raise DeviceError(f"{what}: {name.decode() if name else err}")
    return result[1] if len(result) == 2 else result[1:]


@dataclass(frozen=True)
class Gpu:
    index: int
    name: str
    arch: str            # "sm_90"
    sms: int
    max_threads_per_sm: int
    max_threads_per_block: int
    registers_per_block: int   # a block's threads share at most these
    memory: int
    driver_version: str
    runtime_version: str


def gpu_status(device: int = 0) -> tuple[Gpu | None, str]:
    """(Gpu, "") when `device` is usable, else (None, why not)."""
    try:
        from cuda.bindings import driver
        err, = driver.cuInit(0)
    except Exception as e:  # no libcuda at all
        return None, f"no NVIDIA driver (libcuda not found: {type(e).__name__})"
    if err != driver.CUresult.CUDA_SUCCESS:
        return None, f"no usable GPU (cuInit: {driver.cuGetErrorName(err)[1].decode()})"
    n = check(driver.cuDeviceGetCount(), "cuDeviceGetCount")
    if device >= n:
        return None, f"device={device} but this machine has {n} GPU(s)"
    dev = check(driver.cuDeviceGet(device), "cuDeviceGet")
    attr = driver.CUdevice_attribute

    def get(a):
        return check(driver.cuDeviceGetAttribute(a, dev), "cuDeviceGetAttribute")

    major = get(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
    minor = get(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
    if major < 7:
        return None, f"GPU {device} is sm_{major}{minor}; dream needs sm_70 or newer"
    name = check(driver.cuDeviceGetName(256, dev), "cuDeviceGetName").split(b"\0")[0].decode()
    drv = check(driver.cuDriverGetVersion(), "cuDriverGetVersion")
    import cupy
    rtv = cupy.cuda.runtime.runtimeGetVersion()
    return Gpu(
        index=device, name=name, arch=f"sm_{major}{minor}",
        sms=get(attr.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
        max_threads_per_sm=get(attr.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR),
        max_threads_per_block=get(attr.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
        registers_per_block=get(attr.CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK),
        memory=check(driver.cuDeviceTotalMem(dev), "cuDeviceTotalMem"),
        driver_version=f"{drv // 1000}.{drv % 1000 // 10}",
        runtime_version=f"{rtv // 1000}.{rtv % 1000 // 10}",
    ), ""


def require_gpu(device: int) -> Gpu:
    gpu, why = gpu_status(device)
    if gpu is None:
        raise NoDeviceError(f"dream needs an NVIDIA GPU: {why}")
    return gpu


def cubin_sections(image: bytes) -> dict:
    """{section name: (offset, size)} of a CUBIN (a 64-bit ELF, what NVRTC
    and nvJitLink give); empty for anything else."""
    if not image.startswith(b"\x7fELF\x02"):
        return {}
    try:
        shoff, = struct.unpack_from("<Q", image, 0x28)
        entsize, count, names = struct.unpack_from("<HHH", image, 0x3A)
        headers = [struct.unpack_from("<IIQQQQIIQQ", image, shoff + i * entsize) for i in range(count)]
        table = headers[names][4]
        return {image[table + h[0]:image.index(b"\0", table + h[0])].decode(): (h[4], h[5]) for h in headers}
    except (struct.error, IndexError, ValueError):  # not a CUBIN after all: its load reports that
        return {}


EIATTR_REGCOUNT, EIATTR_MIN_STACK_SIZE = 0x2F, 0x12
_EIFMT_SVAL = 4


def nv_info_values(records: bytes, attribute: int) -> list:
    """(function symbol, value) of each `attribute` record among .nv.info
    records: each a format byte and an attribute byte, then two more bytes
    (a value, or for a sized value, EIFMT_SVAL, its size, the value after),
    every record 4-byte aligned."""
    out, p = [], 0
    while p + 4 <= len(records):
        fmt, attr, size = records[p], records[p + 1], struct.unpack_from("<H", records, p + 2)[0]
        if fmt == _EIFMT_SVAL:
            if attr == attribute and size >= 8:
                out.append(struct.unpack_from("<II", records, p + 4))
            p += 4 + (size + 3) // 4 * 4
        else:
            p += 4
    return out


def cubin_stack_bytes(image: bytes) -> int:
    """The most stack a thread of a kernel of CUBIN `image` needs (its local
    arrays and the frames of its calls): the largest EIATTR_MIN_STACK_SIZE
    of its .nv.info section, 0 where it records none."""
    off, size = cubin_sections(image).get(".nv.info", (0, 0))
    return max((v for _, v in nv_info_values(image[off:off + size], EIATTR_MIN_STACK_SIZE)), default=0)


def reserve_stack(nbytes: int):
    """Raises the context's stack a thread (CU_LIMIT_STACK_SIZE) to `nbytes`
    where it is lower. A launch of a kernel that needs more raises it
    itself, and waits for every running kernel to end first: beside the
    copy kernel or a soft engine's resident kernel, which run until the
    launch after them ends, that wait lasted their whole life (nvme, a
    kernel needing 1,056 bytes against the default 1,024: cuLaunchKernel
    blocked for minutes, bench/results-h100/session51). Raised when a
    module loads, where none of ours runs, the launch waits for nothing."""
    from cuda.bindings import driver
    limit = driver.CUlimit.CU_LIMIT_STACK_SIZE
    if nbytes > check(driver.cuCtxGetLimit(limit), "cuCtxGetLimit"):
        check(driver.cuCtxSetLimit(limit, nbytes),
              f"reserving {nbytes:,} bytes of stack a thread for a kernel's module (cuCtxSetLimit)")


class Module:
    """A loaded CUBIN and its functions. Loading it reserves the stack its
    kernels need (reserve_stack)."""

    def __init__(self, image: bytes):
        from cuda.bindings import driver
        reserve_stack(cubin_stack_bytes(image))
        self._mod = check(driver.cuModuleLoadData(image), "cuModuleLoadData")

    def function(self, name: str):
        from cuda.bindings import driver
        return check(driver.cuModuleGetFunction(self._mod, name.encode()), f"kernel {name}")

    def global_ptr(self, name: str):
        """The device address of the module's variable `name`, None where it
        has none (a kernel that makes no dream access keeps none)."""
        from cuda.bindings import driver
        err, ptr, _ = driver.cuModuleGetGlobal(self._mod, name.encode())
        if err == driver.CUresult.CUDA_ERROR_NOT_FOUND:
            return None
        check((err,), f"cuModuleGetGlobal {name}")
        return int(ptr)

    def unload(self):
        from cuda.bindings import driver
        if self._mod is not None:
            driver.cuModuleUnload(self._mod)
            self._mod = None


def param_layout(func) -> list[tuple[int, int]]:
    """(offset, size) of each kernel parameter, from the driver."""
    from cuda.bindings import driver
    out = []
    while True:
        err, off, size = driver.cuFuncGetParamInfo(func, len(out))
        if err != driver.CUresult.CUDA_SUCCESS:
            return out
        out.append((off, size))


def max_blocks_per_sm(func, block_threads: int, shared: int = 0) -> int:
    from cuda.bindings import driver
    return check(driver.cuOccupancyMaxActiveBlocksPerMultiprocessor(func, block_threads, shared),
                 "cuOccupancyMaxActiveBlocksPerMultiprocessor")


def _func_attribute(func, name: str) -> int:
    from cuda.bindings import driver
    return check(driver.cuFuncGetAttribute(getattr(driver.CUfunction_attribute, name), func),
                 "cuFuncGetAttribute")


def func_registers(func) -> int:
    """Registers a thread of `func` has."""
    return _func_attribute(func, "CU_FUNC_ATTRIBUTE_NUM_REGS")


def max_block_threads(func) -> int:
    """The most threads a block of `func` may have (its registers decide)."""
    return _func_attribute(func, "CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK")


def launch(func, grid, block, params: bytes, offsets: list[int], stream: int, shared: int = 0):
    """Launches with the parameter bytes laid out at the driver's offsets."""
    from cuda.bindings import driver
    buf = np.frombuffer(bytearray(params), dtype=np.uint8)
    ptrs = np.array([buf.ctypes.data + o for o in offsets], dtype=np.uint64)
    check(driver.cuLaunchKernel(func, *grid, *block, shared, stream,
                                ptrs.ctypes.data if offsets else 0, 0), "cuLaunchKernel")


POLL_SHARE = 128
CUDA_ERROR_NOT_READY = 600  # cudaErrorNotReady: work still running; any other error ends the wait


def wait_stream(stream, timeout_s: float, what: str):
    """Waits for `stream` (a cupy Stream), polling, at most timeout_s.

    It spins while the pause would be under 50 us, then sleeps 1/POLL_SHARE
    of the time waited so far (at most a millisecond): the wait ends within
    about 2 % of the work's own time (a sleep overshoots by some 60 us), as
    CUDA's own spin-then-yield wait does. A pause doubling up to a
    millisecond, as before, overshot by up to one: a 2.3 ms kernel was seen
    at 3.3 ms, which put benchmark ratios of short kernels on a 1 ms grid."""
    import cupy
    ev = cupy.cuda.Event(disable_timing=True)
    ev.record(stream)
    start = time.monotonic()
    deadline = start + timeout_s
    # not ev.done: it reads an error (a kernel that crashed) as "not yet"
    while cupy.cuda.runtime.eventQuery(ev.ptr) == CUDA_ERROR_NOT_READY:
        now = time.monotonic()
        if now > deadline:
            raise DreamTimeoutError(
                f"{what} did not finish within the host timeout of {timeout_s:g} s "
                f"(Runtime(host_timeout=...)); the GPU may still be running it")
        pause = min((now - start) / POLL_SHARE, 1e-3)
        if pause >= 5e-5:
            time.sleep(pause)
    try:
        ev.synchronize()
    except cupy.cuda.runtime.CUDARuntimeError as e:  # a kernel crashed: the context is lost
        raise DeviceError(f"{what} failed on the GPU: {e}; this process's CUDA context is "
                          f"unusable from now on") from None
