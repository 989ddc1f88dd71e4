"""The soft RNIC's Python face: the engine (dream._softrnic), its memory
regions and keys, and the queue pairs the GPU posts to, laid out as mlx5.h
says and handed to the device runtime as dream_rnic / dream_rnic_queue.
Its engine runs as host threads (engine="host"), or as the warps of a
kernel beside each launch (engine="gpu": gpu_engine.py, which the backend
gives it), which take the host engine's regions and serve the same QPs.

Queue memory (dream/runtime/queue_memory.py): each QP's SQ, CQ and doorbell
record lie in GPU memory (queue_memory="gpu", as DREAM) or in pinned host
memory ("host"), or its SQ in host memory and its CQ and doorbell record in
GPU memory ("split"); the engine fetches GPU-resident
WQEs by DMA and reads host ones directly. The UAR doorbell words are pinned
host memory (the engine polls them), one 64-byte line per QP. The
descriptors with the ticket/doorbell state (queue.h) and the slot sequence
arrays stay in GPU memory: GPU atomics work on them, and no NIC reads them."""
from __future__ import annotations

import numpy as np

from ..runtime.engines import stop_engine
from ..runtime.errors import ConfigError, DeviceError
from ..runtime.pinned import PinnedBuffer
from ..runtime.queue_memory import QueueMemory, placement
from . import mlx5

_LINE = 64  # each doorbell record and UAR word on its own line


def _align(n: int, a: int = 256) -> int:
    return -(-n // a) * a


class SoftRnic:
    """An engine serving `queues` QPs of `depth` entries for one GPU."""

    MAX_MESSAGE = 1 << 30  # bytes of the longest message (a larger WQE: LOCAL_LENGTH_ERR)

    def __init__(self, *, device: int, queues: int, depth: int, queue_memory: str,
                 threads: int = 1, local_engine: bool = False):
        from .. import _softrnic
        sq_side, cq_side = placement(queue_memory)
        if not isinstance(depth, int) or depth < 1 or depth & (depth - 1) \
                or depth > mlx5.QUEUE_MAX_DEPTH:
            raise ConfigError(f"queue_depth={depth!r}: a power of two from 1 to "
                              f"{mlx5.QUEUE_MAX_DEPTH}")
        if not isinstance(queues, int) or not 1 <= queues <= 4096:
            raise ConfigError(f"queues={queues!r}: from 1 to 4096 queue pairs")
        if not isinstance(threads, int) or not 1 <= threads <= 64:
            raise ConfigError(f"engine_threads={threads!r}: from 1 to 64")
        import cupy
        self.nqueues, self.depth, self.queue_memory = queues, depth, queue_memory
        try:
            # a GPU engine's host engine only keeps regions and QPs: its threads never
            # start, so it needs no streams, and no pinned WQE and CQE images per QP
            self.engine = _softrnic.Engine(gpu=not local_engine, device=device, threads=threads,
                                           max_message=self.MAX_MESSAGE)
        except RuntimeError as e:
            raise DeviceError(f"soft RNIC engine: {e}") from None
        self._keys: dict[int, int] = {}
        self.gpu = None  # the GPU engine serving in place of the engine's threads (gpu_engine.py)

        ring = depth * mlx5.SEND_WQE_BB
        self._sq_stride = _align(ring)          # SQ
        self._cq_stride = _align(ring + _LINE)  # CQ, doorbell record
        self._sqmem = QueueMemory(queues * self._sq_stride, sq_side)
        self._cqmem = QueueMemory(queues * self._cq_stride, cq_side)
        self._uar = PinnedBuffer(queues * _LINE)
        self._uar.bytes[:] = 0
        self._seq = cupy.zeros(queues * depth, dtype=np.uint32)
        self._descs = cupy.zeros(queues * mlx5.RNIC_QUEUE.itemsize, dtype=np.uint8)
        self._top = cupy.zeros(mlx5.RNIC.itemsize, dtype=np.uint8)

        recs = np.zeros(queues, dtype=mlx5.RNIC_QUEUE)
        self.qpns = []
        for i in range(queues):
            sq = self._sqmem.ptr + i * self._sq_stride
            cq = self._cqmem.ptr + i * self._cq_stride
            _, qpn = self.engine.add_qp(sq, cq, depth, self._uar.host_ptr + i * _LINE)
            self.qpns.append(qpn)
            recs[i]["q"]["depth"] = depth
            recs[i]["q"]["seq"] = self._seq.data.ptr + i * depth * 4
            recs[i]["qpn"] = qpn
            recs[i]["sq"], recs[i]["cq"], recs[i]["dbr"] = sq, cq, cq + ring
            recs[i]["uar"] = self._uar.device_ptr + i * _LINE
        self._recs = recs
        for i in range(queues):
            self._init_queue_memory(i)
        top = np.zeros((), dtype=mlx5.RNIC)
        top["queues"], top["nqueues"] = self._descs.data.ptr, queues
        top["flags"] = mlx5.RNIC_LOCAL_ENGINE if local_engine else 0  # a GPU engine will serve them
        self._top.set(np.frombuffer(top.tobytes(), dtype=np.uint8))
        self.transport_ptr = self._top.data.ptr
        self.lkey = 0

    def _init_queue_memory(self, i: int):
        """Queue i as a fresh QP: SQ and doorbell record zero, every CQE
        invalid with owner 0, ticket = rung = lock = 0 and slot s free for
        ticket s. (The engine clears the UAR word: reset_qp.)"""
        ring = self.depth * mlx5.SEND_WQE_BB
        self._sqmem.store(i * self._sq_stride, np.zeros(self._sq_stride, dtype=np.uint8))
        img = np.zeros(self._cq_stride, dtype=np.uint8)
        img[:ring].view(mlx5.CQE64)["op_own"] = mlx5.CQE_INIT_OP_OWN
        self._cqmem.store(i * self._cq_stride, img)
        self._seq[i * self.depth:(i + 1) * self.depth].set(
            2 * np.arange(self.depth, dtype=np.uint32))
        n = mlx5.RNIC_QUEUE.itemsize
        self._descs[i * n:(i + 1) * n].set(np.frombuffer(self._recs[i:i + 1].tobytes(),
                                                         dtype=np.uint8))

    # -- memory regions -----------------------------------------------------

    def register_frames(self, ptr: int, nbytes: int):
        """The frame ring: the local region of every WQE (RDMA READ writes it)."""
        self.lkey = self.engine.register_region(ptr, nbytes, mlx5.ACCESS_LOCAL_WRITE)
        self._recs["lkey"] = self.lkey
        self._descs.set(np.frombuffer(self._recs.tobytes(), dtype=np.uint8))

    def register_backing(self, slot: int, ptr: int, nbytes: int) -> int:
        """An array's backing store: the remote region; returns its rkey."""
        key = self.engine.register_region(
            ptr, nbytes, mlx5.ACCESS_REMOTE_READ | mlx5.ACCESS_REMOTE_WRITE)
        self._keys[slot] = key
        return key

    def deregister_backing(self, slot: int):
        self.engine.deregister(self._keys.pop(slot))

    # -- life cycle -----------------------------------------------------------

    @property
    def records_ptr(self) -> int:
        """The QPs' device records (dream_rnic_queue[]), as a GPU engine reads them."""
        return self._descs.data.ptr

    def start(self):
        if self.gpu is None:
            self.engine.start()

    def check_serving(self):
        if self.gpu is not None:  # it runs with each launch
            return
        why = self.engine.error
        if why is not None:
            raise DeviceError(f"the soft RNIC engine stopped: {why}")
        if not self.engine.running:
            raise DeviceError("the soft RNIC engine is not running")

    def recover(self) -> int:
        """Resets every QP that an error CQE put into the error state (no
        kernel may be running); returns how many."""
        if self.gpu is not None:
            bad = [int(i) for i in np.flatnonzero(self.gpu.states()["error"])]
        else:
            bad = [i for i in range(self.nqueues) if self.engine.qp_error(i)]
        for i in bad:
            self._init_queue_memory(i)
            if self.gpu is not None:
                self.gpu.reset(i)
            else:
                self.engine.reset_qp(i)
        return len(bad)

    def counters(self) -> dict:
        return self.gpu.counters() if self.gpu is not None else dict(self.engine.counters())

    def close(self):
        if getattr(self, "gpu", None) is not None:
            self.gpu.close()
            self.gpu = None
        engine = getattr(self, "engine", None)
        if engine is not None:
            stop_engine(engine, "the soft RNIC engine", getattr(self, "_sqmem", None),
                        getattr(self, "_cqmem", None), getattr(self, "_uar", None))
            for key in self._keys.values():
                engine.deregister(key)
            self._keys.clear()
        for mem in (getattr(self, "_sqmem", None), getattr(self, "_cqmem", None)):
            if mem is not None:
                mem.free()
        if getattr(self, "_uar", None) is not None:
            self._uar.free()
        self._sqmem = self._cqmem = self._uar = self._seq = self._descs = self._top = None
