"""The copy kernel: GPU threads that make a soft engine's copies (pages,
completions) in place of the copy engines, the `dma="copy-kernel"` option of
backends `softrnic` and `nvme` (dream/cuda/include/dream/copier.cuh; its
rings and their protocol: copier.h, whose Python mirror this is, checked by
tests/test_copier.py).

Why: the copy engines cost an engine thread 1.5-3 us per copy
(cudaMemcpyBatchAsync), so 4 KiB pages reach about 2.7 M copies/s on an H100
however many threads issue them. A copy to the copy kernel is a 24-byte
descriptor the thread writes to pinned host memory. This departs from
DESIGN.md, whose soft engines move data with the GPU's copy engines, for
that reason: H100, nvme with the page cache warm, 4 KiB gather 0.40x ->
0.96x pread + copy; softrnic 4 KiB gather 5.3 -> 18.6 GB/s; a lone fault
1.5-6 us slower (bench/results-h100/session26). The copy engines stay, as
dma="copy-engines".

When it runs: only while the runtime runs a kernel (Backend.before_launch /
after_launch). Before a launch, CopyKernel.start() launches it on a stream
of its own, waits (bounded) until every block serves its ring, and then moves
the engine threads' copies to it; the user's kernel comes after, so the copy
kernel is resident before that kernel can fill the GPU. After the launch,
stop() moves the copies back (each thread waits until its ring has drained),
asks the blocks to leave and waits for them. Between launches no kernel of
ours runs: a device-wide synchronize does not wait on it, and the engines'
copies outside launches (host queues, a flush's write-backs) go to the copy
engines. A block that is never told to stop leaves at its deadline, the
runtime's host_timeout plus a minute."""
from __future__ import annotations

import time

import numpy as np

from .compile import compile_source
from .cuda import check, launch, wait_stream
from .errors import ConfigError, DeviceError, TransportError
from .pinned import PinnedBuffer

DMA_MODES = ("copy-engines", "copy-kernel")


def default_dma(page_size: int) -> str:
    """The copy kernel for 4 KiB pages, where the copy engines' cost per copy
    bounds the soft engines; the copy engines for larger pages, whose stream
    they moved faster: 64 KiB stream 0.66-0.70x bulk H2D against the copy
    kernel's 0.63-0.64x on one H100 and 0.46-0.53x on another (one block per
    engine thread, reading across PCIe, is bound by its latency there).
    Pages between are not measured; they keep the copy engines."""
    return "copy-kernel" if page_size <= 4096 else "copy-engines"

SOURCE = '#include "dream/copier.cuh"\n'
SLOTS, BATCHES, CHUNK, THREADS = 4096, 1024, 4096, 512
STAGE, STAGE_BYTES = SLOTS // 2, SLOTS // 2 * 20
COPY_DESC = np.dtype([("src", "<u8"), ("dst", "<u8"), ("len", "<u4"), ("pad", "<u4")])
COPY_RING = np.dtype([("posted", "<u8"), ("pad0", "u1", (56,)), ("consumed", "<u8"),
                      ("pad1", "u1", (56,)), ("ends", "<u8", (BATCHES,)), ("desc", COPY_DESC, (SLOTS,))])
COPIER_CTL = np.dtype([("started", "<u4"), ("stop", "<u4"), ("expired", "<u4"), ("pad", "<u4", (13,))])


def constants() -> dict:
    return {"DREAM_COPIER_SLOTS": SLOTS, "DREAM_COPIER_BATCHES": BATCHES,
            "DREAM_COPIER_CHUNK": CHUNK, "DREAM_COPIER_THREADS": THREADS,
            "DREAM_COPIER_STAGE": STAGE, "DREAM_COPIER_STAGE_BYTES": STAGE_BYTES}


def check_dma(dma, page_size: int) -> str:
    """`dma` checked, or the default for `page_size` where it is None."""
    if dma is None:
        return default_dma(page_size)
    if dma not in DMA_MODES:
        raise ConfigError(f"dma={dma!r}: one of " + ", ".join(repr(m) for m in DMA_MODES))
    return dma


def _whole_sm(fn, device: int) -> int:
    """Dynamic shared memory that gives a block of `fn` an SM to itself: the
    most a block may have (its static share counted), set on `fn`."""
    from cuda.bindings import driver
    dev = check(driver.cuDeviceGet(device), "cuDeviceGet")
    most = check(driver.cuDeviceGetAttribute(
        driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev),
        "cuDeviceGetAttribute")
    static = check(driver.cuFuncGetAttribute(
        driver.CUfunction_attribute.CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn), "cuFuncGetAttribute")
    dynamic = most - static
    if dynamic < STAGE_BYTES:
        raise DeviceError(f"the copy kernel needs {STAGE_BYTES + static:,} bytes of shared memory "
                          f"a block; this GPU allows {most:,}")
    check(driver.cuFuncSetAttribute(
        fn, driver.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, dynamic),
        "cuFuncSetAttribute")
    return dynamic


class RingMemory:
    """The control block and `n` rings in one block of zeroed pinned host
    memory (host address = device address, unified addressing)."""

    def __init__(self, n: int):
        self.buf = PinnedBuffer(COPIER_CTL.itemsize + n * COPY_RING.itemsize)
        self.buf.bytes[:] = 0
        self.ptr = self.buf.host_ptr
        self.rings_ptr = self.ptr + COPIER_CTL.itemsize
        self.ctl = self.buf.bytes[:COPIER_CTL.itemsize].view(COPIER_CTL)
        self.rings = self.buf.bytes[COPIER_CTL.itemsize:].view(COPY_RING)

    def undrained(self) -> list:
        """The rings whose last posted batch has not landed."""
        r = self.rings
        posted = r["posted"].astype(np.int64)
        last = r["ends"][np.arange(len(r)), (posted - 1) % BATCHES]
        return [int(k) for k in np.flatnonzero((posted > 0) & (r["consumed"] != last))]

    def word(self, name: str) -> int:
        return int(self.ctl[name][0])

    def set(self, **words):
        for k, v in words.items():
            self.ctl[k] = v


class CopyKernel:
    """The copy kernel of one engine with `threads` engine threads (a ring,
    and a block, each). `engine` is the pybind11 engine (set_copier,
    use_copier); it must be stopped here, and is started by the caller."""

    START_TIMEOUT = 10.0   # s: the blocks are resident within this, or the launch is refused
    SWITCH_TIMEOUT = 70.0  # s: longer than an engine thread's own wait for its ring (60 s)

    def __init__(self, rt, engine, threads: int, define: str):
        import cupy
        if threads > rt.gpu.sms // 4:
            raise ConfigError(f"dma='copy-kernel' takes an SM per engine thread: {threads} engine threads "
                              f"of {rt.gpu.sms} SMs is more than a quarter; use fewer or "
                              "dma='copy-engines'")
        self.engine, self.threads = engine, threads
        self.mem = RingMemory(threads)
        self._stream = cupy.cuda.Stream(non_blocking=True)
        engine.set_copier(self.mem.rings_ptr, threads, self._stream.ptr)
        image, low = compile_source(SOURCE, ("dream_copier",), rt.gpu.arch, (define,), (), "copier.cu")
        # loaded now: a kernel loaded lazily, at its first launch, while
        # another runs, waits for the GPU to go idle
        self._fn = rt._load(image).function(low["dream_copier"])
        self._shared = _whole_sm(self._fn, rt.device)
        self._life_ns = int((rt.host_timeout_s + 60) * 1e9)
        self.running = False
        self.launches = 0   # kernels started (tests, diagnostics)

    def start(self):
        """Launches the copy kernel and moves the engine's copies to it."""
        self.stop()  # one left running by an interrupted launch
        undrained = self.mem.undrained()
        if undrained:  # a new block would take them as made: refuse instead
            raise TransportError(f"engine thread(s) {undrained} have copies on the copy kernel's ring "
                                 "that no copy kernel made (an earlier stop failed)")
        self.mem.set(started=0, stop=0, expired=0)
        launch(self._fn, (self.threads, 1, 1), (THREADS, 1, 1),
               self.mem.ptr.to_bytes(8, "little") + self.mem.rings_ptr.to_bytes(8, "little")
               + self._life_ns.to_bytes(8, "little"), [0, 8, 16], self._stream.ptr, self._shared)
        self.running = True
        self.launches += 1
        deadline = time.monotonic() + self.START_TIMEOUT
        while self.mem.word("started") < self.threads:
            if time.monotonic() > deadline:
                self.stop()
                raise TransportError(
                    f"the copy kernel's {self.threads} blocks were not all running after "
                    f"{self.START_TIMEOUT:g} s ({self.mem.word('started')} were): the GPU is "
                    "full with other work")
            time.sleep(0)
        try:
            self.engine.use_copier(True, self.SWITCH_TIMEOUT)
        except RuntimeError as e:
            self.stop()
            raise TransportError(f"moving the engine's copies to the copy kernel: {e}") from None

    def stop(self):
        """Moves the engine's copies back to the copy engines (each thread's
        ring drained first), then ends the copy kernel. Bounded."""
        if not self.running:
            return
        try:
            self.engine.use_copier(False, self.SWITCH_TIMEOUT)
        except RuntimeError as e:
            raise TransportError(f"moving the engine's copies off the copy kernel: {e}") from None
        finally:
            self.mem.set(stop=1)
            self.running = False
            wait_stream(self._stream, self.SWITCH_TIMEOUT, "the copy kernel's exit")
        if self.mem.word("expired"):
            raise TransportError(f"{self.mem.word('expired')} copy kernel block(s) left at their "
                                 "deadline, before the runtime stopped them")
