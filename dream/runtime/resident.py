"""Kernels of a backend's own that run beside each of the user's launches,
on SMs of their own: a soft engine's copy kernel (runtime/copier.py) and the
soft RNIC's GPU engine (verbs/gpu_engine.py). `Backend.resident` names one;
the runtime starts it before each launch and stops it after
(Runtime._launch).

Each takes (dream_copier_ctl *ctl, an argument, life in ns): copier.h says
who writes ctl's words. start() launches it on a stream of its own and waits,
bounded, until every block has started, so that it is resident before the
user's kernel can fill the GPU; stop() sets `stop` and waits, bounded, for the
kernel to leave. A block (or warp) that is never told to stop leaves at its
deadline, the runtime's host_timeout plus a minute, and counts itself in
`expired`."""
from __future__ import annotations

import time

import numpy as np

from .compile import compile_source
from .cuda import check, launch, wait_stream
from .errors import DeviceError, TransportError
from .pinned import PinnedBuffer

COPIER_CTL = np.dtype([("started", "<u4"), ("stop", "<u4"), ("expired", "<u4"), ("pad", "<u4", (13,))])


def whole_sm(fn, device: int, need: int) -> int:
    """Dynamic shared memory that gives a block of `fn` an SM to itself: the
    most a block may have (its static share counted), set on `fn`; at least
    `need` bytes, or DeviceError."""
    from cuda.bindings import driver
    dev = check(driver.cuDeviceGet(device), "cuDeviceGet")
    most = check(driver.cuDeviceGetAttribute(
        driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev),
        "cuDeviceGetAttribute")
    static = check(driver.cuFuncGetAttribute(
        driver.CUfunction_attribute.CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn), "cuFuncGetAttribute")
    dynamic = most - static
    if dynamic < need:
        raise DeviceError(f"a resident kernel needs {need + static:,} bytes of shared memory "
                          f"a block; this GPU allows {most:,}")
    check(driver.cuFuncSetAttribute(
        fn, driver.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, dynamic),
        "cuFuncSetAttribute")
    return dynamic


class Control:
    """A dream_copier_ctl in `buf` (pinned host memory) at `offset`."""

    def __init__(self, buf: PinnedBuffer, offset: int = 0):
        self.ptr = buf.host_ptr + offset
        self.words = buf.bytes[offset:offset + COPIER_CTL.itemsize].view(COPIER_CTL)

    def word(self, name: str) -> int:
        return int(self.words[name][0])

    def set(self, **words):
        for k, v in words.items():
            self.words[k] = v


class ResidentKernel:
    """Kernel `name` of `source`, `blocks` blocks of `threads`, each on an SM
    of its own (with at least `shared` bytes of dynamic shared memory),
    launched with (ctl, arg, life). `what` names it in errors."""

    START_TIMEOUT = 10.0  # s: the blocks are resident within this, or the launch is refused
    STOP_TIMEOUT = 70.0   # s: longer than an engine thread's own wait for its copy ring (60 s)

    def __init__(self, rt, source: str, name: str, define: str, blocks: int, threads: int,
                 shared: int, ctl: Control, arg: int, what: str):
        import cupy
        self.blocks, self.threads, self.ctl, self.arg, self.what = blocks, threads, ctl, arg, what
        self.stream = cupy.cuda.Stream(non_blocking=True)
        image, low = compile_source(source, (name,), rt.gpu.arch, (define,), (), name + ".cu")
        # loaded now: a kernel loaded lazily, at its first launch, while
        # another runs, waits for the GPU to go idle
        self._fn = rt._load(image).function(low[name])
        self._shared = whole_sm(self._fn, rt.device, shared)
        self._life_ns = int((rt.host_timeout_s + 60) * 1e9)
        self.running = False
        self.launches = 0   # kernels started (tests, diagnostics)

    def launch(self):
        """Launches it and waits until every block has started."""
        self.ctl.set(started=0, stop=0, expired=0)
        launch(self._fn, (self.blocks, 1, 1), (self.threads, 1, 1),
               self.ctl.ptr.to_bytes(8, "little") + self.arg.to_bytes(8, "little")
               + self._life_ns.to_bytes(8, "little"), [0, 8, 16], self.stream.ptr, self._shared)
        self.running = True
        self.launches += 1
        deadline = time.monotonic() + self.START_TIMEOUT
        while self.ctl.word("started") < self.blocks:
            if time.monotonic() > deadline:
                started = self.ctl.word("started")
                self.end()
                raise TransportError(
                    f"{self.what}'s {self.blocks} blocks were not all running after "
                    f"{self.START_TIMEOUT:g} s ({started} were): the GPU is full with other work")
            time.sleep(0)

    def end(self):
        """Asks it to leave and waits for it (bounded); raises if a block
        left at its deadline instead."""
        if not self.running:
            return
        self.ctl.set(stop=1)
        self.running = False
        wait_stream(self.stream, self.STOP_TIMEOUT, f"{self.what}'s exit")
        if self.ctl.word("expired"):
            raise TransportError(f"{self.what} left at its deadline, before the runtime stopped it "
                                 f"({self.ctl.word('expired')} of its blocks or warps)")
