"""The NVMe controller's host side: the software controller (dream._softnvme)
with its BAR0 stand-in, I/O queue pairs laid out as nvme.h says and handed to
the device runtime as dream_nvme / dream_nvme_queue, per-frame PRP lists, and
a small host-owned queue (HostQueue) that the host uses for Flush commands
and the CPU tests use to drive the controller.

Queue memory (dream/runtime/queue_memory.py): SQs, CQs and PRP lists lie in
GPU memory (queue_memory="gpu", as BaM) or in pinned host memory mapped into
the GPU ("host": the GPU writes commands to host memory and reads
completions there, GPU-NVMe-Direct's write-only tier), or SQs and PRP lists
(which the controller reads) in host memory and CQs in GPU memory
("split"). The queue descriptors with the ticket/doorbell state
(queue.h) and the completion mailboxes stay in GPU memory: GPU atomics work
on them and no controller reads them.

Real controller (seam, not built): the host setup for a real device is what
SoftNvme does, with these replacements. BAR0: the PCI resource0 of a
controller unbound from the kernel driver (vfio-pci), mapped and registered
with cudaHostRegister(cudaHostRegisterIoMemory) so GPU threads can ring its
doorbells. Queues: created through the admin queue (Create I/O CQ 0x05, then
Create I/O SQ 0x01) with bus addresses, which for GPU memory come from
nvidia-peermem/dma-buf and need not be contiguous (CQR permitting). Data:
dream_nvme.frames_dma and the PRP lists must hold the frame ring's bus
addresses, not its device pointers. Namespaces: the device's own, with its
LBA format. None of this exists on machines without NVMe (real_devices())."""
from __future__ import annotations

import os
import time

import numpy as np

from ..runtime.engines import stop_engine
from ..runtime.errors import ConfigError, DeviceError, DreamTimeoutError, TransportError
from ..runtime.pinned import PinnedBuffer
from ..runtime.queue_memory import QueueMemory, placement
from . import wire

BROADCAST_NSID = 0xFFFFFFFF


def real_devices() -> list[str]:
    """NVMe controllers the kernel knows of (/sys/class/nvme)."""
    try:
        return sorted(os.listdir("/sys/class/nvme"))
    except OSError:
        return []


def prp_layout(page_size: int) -> tuple[int, int]:
    """(entries, stride) of the per-frame PRP lists for pages of page_size:
    lists of up to 512 entries get a power-of-two stride so that none
    crosses a controller page; longer (chained) ones start on a page."""
    n = wire.prp_list_entries(page_size)
    if n == 0:
        return 0, 0
    if n <= wire.PRP_PER_PAGE:
        return n, 1 << (n * 8 - 1).bit_length()
    return n, -(-n * 8 // wire.CTRL_PAGE) * wire.CTRL_PAGE


def frame_prp_lists(base: int, stride: int, frames_ptr: int, page_size: int,
                    nframes: int) -> np.ndarray:
    """Every frame's PRP list (at base + f * stride), as uint64 entries."""
    per, pages = stride // 8, page_size // wire.CTRL_PAGE
    lists = np.zeros(nframes * per, dtype="<u8")
    n = pages - 1
    if n <= wire.PRP_PER_PAGE:  # unchained: computed for all frames at once
        k = np.arange(1, pages, dtype=np.uint64) * np.uint64(wire.CTRL_PAGE)
        f = np.arange(nframes, dtype=np.uint64)[:, None] * np.uint64(page_size)
        lists.reshape(nframes, per)[:, :n] = np.uint64(frames_ptr) + f + k
    else:
        for f in range(nframes):
            wire.fill_prp_list(lists[f * per:(f + 1) * per], base + f * stride,
                               frames_ptr + f * page_size, pages)
    return lists


class Bar:
    """BAR0 stand-in: host memory the controller publishes CAP in and the
    submitters ring doorbells in (pinned and mapped into the GPU in GPU
    mode)."""

    def __init__(self, nqueues: int, gpu: bool, dstrd: int = 0):
        self.size = wire.cq_head_doorbell(nqueues, dstrd) + 4
        if gpu:
            self._buf = PinnedBuffer(self.size)
            self.bytes = self._buf.bytes
            self.host_ptr, self.device_ptr = self._buf.host_ptr, self._buf.device_ptr
        else:
            self._buf = None
            self.bytes = np.zeros(self.size, dtype=np.uint8)
            self.host_ptr = self.device_ptr = self.bytes.ctypes.data
        self.bytes[:] = 0
        self.dstrd = dstrd

    def u32(self, off: int) -> np.ndarray:
        return self.bytes[off:off + 4].view("<u4")

    @property
    def cap(self) -> int:
        return int(self.bytes[wire.REG_CAP:wire.REG_CAP + 8].view("<u8")[0])

    def free(self):
        if self._buf is not None:
            self._buf.free()
        self.bytes = None


class HostQueue:
    """An I/O queue pair the host owns (host memory): posts commands and
    rings the SQ tail doorbell, reaps completions by phase tag and rings the
    CQ head doorbell, as a driver does."""

    def __init__(self, engine, bar: Bar, qid: int, entries: int):
        self.engine, self.bar, self.qid, self.entries = engine, bar, qid, entries
        self.sq = np.zeros(entries, dtype=wire.SQE)
        self.cq = np.zeros(entries, dtype=wire.CQE)
        dstrd = wire.cap_dstrd(bar.cap)
        self.sq_db = bar.u32(wire.sq_tail_doorbell(qid, dstrd))
        self.cq_db = bar.u32(wire.cq_head_doorbell(qid, dstrd))
        engine.create_queue(qid, self.sq.ctypes.data, self.cq.ctypes.data, entries)
        self.tail = self.head = 0
        self.phase = 1
        self.cid = 0

    def post(self, opc: int, nsid: int, cid: int | None = None, **fields) -> int:
        """Writes one command into the next SQ entry (not rung); returns its cid."""
        if cid is None:
            cid, self.cid = self.cid, (self.cid + 1) & 0xFFFF
        self.sq[self.tail] = wire.sqe(opc, cid, nsid, **fields)[0]
        self.tail = (self.tail + 1) % self.entries
        return cid

    def ring(self, tail: int | None = None):
        self.sq_db[0] = self.tail if tail is None else tail

    def reap(self, ring: bool = True) -> list:
        """The CQEs that have arrived, in CQ order; rings the CQ head doorbell."""
        out = []
        while True:
            e = self.cq[self.head]
            if wire.cqe_phase(int(e["status"])) != self.phase:
                break
            out.append(e.copy())
            self.head += 1
            if self.head == self.entries:
                self.head, self.phase = 0, self.phase ^ 1
        if out and ring:
            self.cq_db[0] = self.head
        return out

    def wait(self, cids, timeout: float = 10.0, serve=None) -> dict:
        """{cid: CQE} for every cid, calling serve() (e.g. engine.poll) between looks.
        Raises TransportError as soon as the engine records a failure (an
        engine thread died, an invalid doorbell write) instead of timing out."""
        want, got = set(cids), {}
        deadline = time.monotonic() + timeout
        pause = 1e-5
        while want - set(got):
            why = self.engine.error
            if why is not None:
                raise TransportError(
                    f"NVMe queue {self.qid}: the software NVMe controller failed ({why}); "
                    f"no completion for command(s) {sorted(want - set(got))}")
            if serve is not None:
                serve()
            for e in self.reap():
                got[int(e["cid"])] = e
            if want - set(got):
                if time.monotonic() > deadline:
                    raise DreamTimeoutError(
                        f"NVMe queue {self.qid}: no completion for command(s) "
                        f"{sorted(want - set(got))} within {timeout:g} s")
                time.sleep(pause)
                pause = min(pause * 2, 1e-3)
        return got


def check_frames_aligned(frames_ptr: int):
    """Every frame must start a controller page: the device writes one PRP
    per controller page of a frame (nvme.cuh), so a ring off that boundary
    would spill each page into a PRP2 of 0 (a Data Transfer Error)."""
    if frames_ptr % wire.CTRL_PAGE:
        raise DeviceError(f"frame ring at {frames_ptr:#x} is not aligned to the {wire.CTRL_PAGE}-byte "
                          "NVMe controller page: PRPs would split every page")


class SoftNvme:
    """The software controller serving `queues` I/O queue pairs of `depth`
    requests each for one GPU's frame ring, plus one host queue."""

    def __init__(self, *, device: int, queues: int, depth: int, queue_memory: str,
                 page_size: int, frames_ptr: int, nframes: int, lba_size: int = 512,
                 threads: int = 1, io_threads: int = 8, staging: int = 64 << 20):
        from .. import _softnvme
        import cupy
        sq_side, cq_side = placement(queue_memory)
        if not isinstance(depth, int) or depth < 1 or depth & (depth - 1) \
                or depth > wire.QUEUE_MAX_DEPTH:
            raise ConfigError(f"queue_depth={depth!r}: a power of two from 1 to "
                              f"{wire.QUEUE_MAX_DEPTH}")
        if not isinstance(queues, int) or not 1 <= queues <= 1024:
            raise ConfigError(f"queues={queues!r}: from 1 to 1024 queue pairs")
        check_frames_aligned(frames_ptr)
        if lba_size not in (512, 4096):
            raise ConfigError(f"lba_size={lba_size!r}: 512 or 4096")
        if not isinstance(threads, int) or not 1 <= threads <= 64:
            raise ConfigError(f"engine_threads={threads!r}: from 1 to 64")
        if not isinstance(io_threads, int) or not 1 <= io_threads <= 256:
            raise ConfigError(f"io_threads={io_threads!r}: from 1 to 256")
        self.nqueues, self.depth, self.queue_memory = queues, depth, queue_memory
        self.lba_size, self.page_size = lba_size, page_size
        self.entries = 2 * depth  # > depth in flight: neither SQ nor CQ ever fills
        self.host_qid = queues + 1
        self.bar = Bar(self.host_qid, gpu=True)
        try:
            self.engine = _softnvme.Engine(
                gpu=True, device=device, bar=self.bar.host_ptr, bar_size=self.bar.size,
                lba_size=lba_size, mdts=max(page_size, wire.CTRL_PAGE), staging=staging,
                threads=threads, io_threads=io_threads)
        except (RuntimeError, ValueError) as e:
            raise DeviceError(f"software NVMe controller: {e}") from None
        cap = self.bar.cap
        if self.entries > wire.cap_mqes(cap) + 1:
            raise ConfigError(f"queue_depth={depth}: the controller's queues hold at most "
                              f"{wire.cap_mqes(cap) + 1} entries (2 x depth needed)")
        dstrd = wire.cap_dstrd(cap)

        # queue memory: the SQs, then the frames' PRP lists (read by the
        # controller); the CQs (polled by the GPU)
        page = wire.CTRL_PAGE
        sq_stride = -(-self.entries * wire.SQE.itemsize // page) * page
        cq_stride = -(-self.entries * wire.CQE.itemsize // page) * page
        _, self.prp_stride = prp_layout(page_size)
        prp_bytes = nframes * self.prp_stride
        self._sqmem = QueueMemory(queues * sq_stride + prp_bytes + (page if prp_bytes else 0), sq_side)
        self._cqmem = QueueMemory(queues * cq_stride, cq_side)
        base = self._sqmem.ptr
        prp_base = -(-(base + queues * sq_stride) // page) * page if prp_bytes else 0
        if prp_bytes:
            lists = frame_prp_lists(prp_base, self.prp_stride, frames_ptr, page_size, nframes)
            self._sqmem.store(prp_base - base, lists)
            self.engine.map_dma(prp_base, prp_bytes)
        self.engine.map_dma(frames_ptr, nframes * page_size)

        self._seq = cupy.zeros(queues * depth, dtype=np.uint32)
        self._mailbox = cupy.zeros(queues * depth, dtype=np.uint32)
        recs = np.zeros(queues, dtype=wire.NVME_QUEUE)
        for i in range(queues):
            qid, sq, cq = i + 1, base + i * sq_stride, self._cqmem.ptr + i * cq_stride
            self.engine.create_queue(qid, sq, cq, self.entries)
            r = recs[i]
            r["q"]["depth"] = depth
            r["q"]["seq"] = self._seq.data.ptr + i * depth * 4
            r["sq"], r["cq"] = sq, cq
            r["sq_db"] = self.bar.device_ptr + wire.sq_tail_doorbell(qid, dstrd)
            r["cq_db"] = self.bar.device_ptr + wire.cq_head_doorbell(qid, dstrd)
            r["mailbox"] = self._mailbox.data.ptr + i * depth * 4
            r["entries"], r["qid"], r["cq_phase"] = self.entries, qid, 1
        self._seq.set(np.tile(2 * np.arange(depth, dtype=np.uint32), queues))
        self._descs = cupy.asarray(np.frombuffer(recs.tobytes(), dtype=np.uint8))
        top = np.zeros((), dtype=wire.NVME)
        top["queues"], top["nqueues"] = self._descs.data.ptr, queues
        top["frames_dma"] = frames_ptr  # soft controller: device pointers (see the seam above)
        top["prp_lists"], top["prp_stride"] = prp_base, self.prp_stride
        top["lba_shift"] = lba_size.bit_length() - 1
        self._top = cupy.asarray(np.frombuffer(top.tobytes(), dtype=np.uint8))
        self.transport_ptr = self._top.data.ptr
        self.host_queue = HostQueue(self.engine, self.bar, self.host_qid, 64)

    # -- namespaces -----------------------------------------------------------

    def add_namespace(self, path: str, writable: bool, cold: bool) -> int:
        try:
            return self.engine.add_namespace(str(path), writable, cold)
        except (RuntimeError, ValueError) as e:
            raise ConfigError(f"NVMe namespace {str(path)!r}: {e}") from None

    def remove_namespace(self, nsid: int):
        self.engine.remove_namespace(nsid)

    def flush(self, nsids, timeout: float = 60.0):
        """NVMe Flush of each namespace through the host queue: what the
        controller completed before is durable when this returns."""
        q = self.host_queue
        for start in range(0, len(nsids), q.entries - 1):
            cids = [q.post(wire.OPC_FLUSH, n) for n in nsids[start:start + q.entries - 1]]
            q.ring()
            serve = None if self.engine.running else self.engine.poll
            got = q.wait(cids, timeout, serve)
            for cid, n in zip(cids, nsids[start:]):
                s = wire.cqe_status(int(got[cid]["status"]))
                if s & wire.SF_CODE_MASK:
                    raise DeviceError(f"NVMe Flush of namespace {n} failed: "
                                      f"{wire.describe_status(s)}")

    # -- life cycle -------------------------------------------------------------

    def start(self):
        self.engine.start()

    def check_serving(self):
        why = self.engine.error
        if why is not None:
            raise DeviceError(f"the software NVMe controller stopped: {why}")
        if not self.engine.running:
            raise DeviceError("the software NVMe controller is not running")

    def counters(self) -> dict:
        return dict(self.engine.counters())

    def stop(self):
        """Ends the engine threads (bounded: raises TransportError, keeping
        the engine and its memory, if one does not end)."""
        stop_engine(self.engine, "the software NVMe controller", getattr(self, "_sqmem", None),
                    getattr(self, "_cqmem", None), getattr(self, "bar", None))

    def close(self):
        engine = getattr(self, "engine", None)
        if engine is not None:
            self.stop()
        for mem in (getattr(self, "_sqmem", None), getattr(self, "_cqmem", None)):
            if mem is not None:
                mem.free()
        bar = getattr(self, "bar", None)
        self.host_queue = None  # holds the engine too
        self.engine = self._sqmem = self._cqmem = None
        self._seq = self._mailbox = self._descs = self._top = None
        if bar is not None:
            bar.free()
