"""Backend `rnic`: the RNIC transport (device side dream/cuda/include/dream/
rnic.cuh, the same code as `softrnic`) served by a real ConnectX. GPU
threads write mlx5 RDMA READ/WRITE WQEs into send queues in GPU memory, ring
the UAR doorbell mapped into the GPU and poll their CQEs; the NIC moves pages
between the registered pinned host backing stores and the frame ring. Host
setup: dream/verbs/device.py. Needs an mlx5 RDMA device and pyverbs; on
machines without them it is unavailable, and says why."""
from __future__ import annotations

import numpy as np

from ..runtime.backends import Backend, register
from ..runtime.cuda import gpu_status
from ..runtime.errors import BackendUnavailableError, ConfigError
from . import mlx5
from .backing import DEFAULT_DEPTH, RegisteredBacking
from .device import RnicDevice, queue_records
from .pyverbs_shim import rdma_unavailable_reason


@register
class RnicBackend(RegisteredBacking, Backend):
    """Runtime(backend="rnic", queues=<SMs>, queue_depth=64, queue_memory="gpu",
    rdma_device=<first mlx5>, port=1)"""
    name = "rnic"
    define = "DREAM_BACKEND_RNIC"

    @classmethod
    def availability(cls):
        why = rdma_unavailable_reason()
        if why:
            return False, why
        gpu, why = gpu_status()
        return (True, "") if gpu else (False, why)

    def __init__(self, rt, queues: int | None = None, queue_depth: int = DEFAULT_DEPTH,
                 queue_memory: str = "gpu", rdma_device: str | None = None, port: int = 1):
        ok, why = self.availability()
        if not ok:
            raise BackendUnavailableError(f"backend 'rnic' cannot run here: {why}")
        super().__init__(rt)
        nq = rt.gpu.sms if queues is None else queues
        if not isinstance(nq, int) or nq < 1:
            raise ConfigError(f"queues={queues!r}: expected a positive number of queue pairs")
        depth = queue_depth
        if not isinstance(depth, int) or depth < 1 or depth & (depth - 1) \
                or depth > mlx5.QUEUE_MAX_DEPTH:
            raise ConfigError(f"queue_depth={depth!r}: a power of two up to {mlx5.QUEUE_MAX_DEPTH}")
        import cupy
        self.open_store(rt.page_size)
        self.nic = RnicDevice(queues=nq, depth=depth, queue_memory=queue_memory,
                              name=rdma_device, port=port, cuda_device=rt.device)
        try:
            self.nic.register_frames(rt.frames_ptr, rt.nframes * rt.page_size)
            self.nic.create_queues()
            # queue.h: slot s starts free for ticket s (seq = 2s)
            self._seq = cupy.asarray(np.tile(2 * np.arange(depth, dtype=np.uint32), (nq, 1)))
            seq = [self._seq.data.ptr + i * depth * 4 for i in range(nq)]
            self._queues = cupy.asarray(np.frombuffer(
                queue_records(self.nic.queues, seq).tobytes(), dtype=np.uint8))
            top = np.zeros((), dtype=mlx5.RNIC)
            top["queues"], top["nqueues"] = self._queues.data.ptr, nq
            self._top = cupy.asarray(np.frombuffer(top.tobytes(), dtype=np.uint8))
            self.transport_ptr = self._top.data.ptr
        except BaseException:
            self.close()
            raise

    def nic_address(self, buf):
        return buf.host_ptr   # ibv_reg_mr takes the host virtual address

    def describe_error(self, detail) -> str:
        d0, qp, idx, opcode = (int(x) for x in detail)
        if d0 & mlx5.RNIC_BAD_CQE:
            return mlx5.describe_detail(detail)
        # a ConnectX's vendor syndromes are its own, undocumented: shown raw
        op = {mlx5.OPCODE_RDMA_READ: "RDMA READ",
              mlx5.OPCODE_RDMA_WRITE: "RDMA WRITE"}.get(opcode, f"opcode {opcode:#x}")
        synd, vendor = d0 & 0xFF, (d0 >> 8) & 0xFF
        return (f"{op} completed with {mlx5.SYNDROMES.get(synd, 'unknown syndrome')} "
                f"(syndrome {synd:#x}, vendor syndrome {vendor:#x}) on queue {qp}, WQE {idx}, "
                f"{self.nic.name}")

    def info(self):
        n = self.nic
        return {"backend": self.name, "transport": "mlx5 RDMA READ/WRITE posted by GPU threads",
                "rdma_device": n.name, "port": n.port, "loopback": n.loopback,
                "queues": n.queues_n, "depth": n.depth, "queue_memory": n.queue_memory}

    def close(self):
        nic = getattr(self, "nic", None)
        if nic is not None:
            nic.close()
        store = getattr(self, "store", None)
        if store is not None:
            store.close()
        self._top = self._queues = self._seq = None
