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

When it runs: only while the runtime runs a kernel, as a resident kernel
(runtime/resident.py). Before a launch, CopyKernel.start() launches it and
then moves the engine threads' copies to it; after the launch, stop() moves
the copies back (each thread waits until its ring has drained) and ends it.
Between launches no kernel of ours runs: a device-wide synchronize does not
wait on it, and the engines' copies outside launches (host queues, a flush's
write-backs) go to the copy engines."""
from __future__ import annotations

import numpy as np

from .errors import ConfigError, TransportError
from .pinned import PinnedBuffer
from .resident import COPIER_CTL, Control, ResidentKernel

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


class RingMemory:
    """The control block and `n` rings in one block of zeroed pinned host
    memory (host address = device address, unified addressing)."""

    def __init__(self, n: int):
        self.buf = PinnedBuffer(COPIER_CTL.itemsize + n * COPY_RING.itemsize)
        self.buf.bytes[:] = 0
        self.ctl = Control(self.buf)
        self.ptr = self.ctl.ptr
        self.rings_ptr = self.ptr + COPIER_CTL.itemsize
        self.rings = self.buf.bytes[COPIER_CTL.itemsize:].view(COPY_RING)

    def undrained(self) -> list:
        """The rings whose last posted batch has not landed."""
        r = self.rings
        posted = r["posted"].astype(np.int64)
        last = r["ends"][np.arange(len(r)), (posted - 1) % BATCHES]
        return [int(k) for k in np.flatnonzero((posted > 0) & (r["consumed"] != last))]


class CopyKernel:
    """The copy kernel of one engine with `threads` engine threads (a ring,
    and a block, each). `engine` is the pybind11 engine (set_copier,
    use_copier); it must be stopped here, and is started by the caller."""

    SWITCH_TIMEOUT = ResidentKernel.STOP_TIMEOUT

    def __init__(self, rt, engine, threads: int, define: str):
        if threads > rt.gpu.sms // 4:
            raise ConfigError(f"dma='copy-kernel' takes an SM per engine thread: {threads} engine threads "
                              f"of {rt.gpu.sms} SMs is more than a quarter; use fewer or "
                              "dma='copy-engines'")
        self.engine, self.threads = engine, threads
        self.mem = RingMemory(threads)
        self.kernel = ResidentKernel(rt, SOURCE, "dream_copier", define, threads, THREADS, STAGE_BYTES,
                                     self.mem.ctl, self.mem.rings_ptr, "the copy kernel")
        engine.set_copier(self.mem.rings_ptr, threads, self.kernel.stream.ptr)

    @property
    def running(self) -> bool:
        return self.kernel.running

    @property
    def launches(self) -> int:
        return self.kernel.launches

    def start(self):
        """Launches the copy kernel and moves the engine's copies to it."""
        self.stop()  # one left running by an interrupted launch
        undrained = self.mem.undrained()
        if undrained:  # a new block would take them as made: refuse instead
            raise TransportError(f"engine thread(s) {undrained} have copies on the copy kernel's ring "
                                 "that no copy kernel made (an earlier stop failed)")
        self.kernel.launch()
        try:
            self.engine.use_copier(True, self.SWITCH_TIMEOUT)
        except RuntimeError as e:
            self.stop()  # the threads that followed move back, then the kernel ends
            raise TransportError(f"moving the engine's copies to the copy kernel: {e}") from None

    def stop(self):
        """Moves the engine's copies back to the copy engines (each thread's
        ring drained first), then ends the copy kernel. Bounded."""
        if not self.kernel.running:
            return
        try:
            self.engine.use_copier(False, self.SWITCH_TIMEOUT)
        except RuntimeError as e:
            raise TransportError(f"moving the engine's copies off the copy kernel: {e}") from None
        finally:
            self.kernel.end()
