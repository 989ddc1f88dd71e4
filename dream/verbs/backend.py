"""Backend `softrnic`: the RNIC transport (device side
dream/cuda/include/dream/rnic.cuh, the same code as `rnic`) served by the
software RNIC (dream/cuda/softrnic.cpp, Python face dream/verbs/softrnic.py):
GPU threads post mlx5 RDMA READ/WRITE WQEs and ring doorbells; an engine
thread on the host checks them as a NIC would and has the pages moved by a
copy kernel or the GPU's copy engines (dma=). Backing stores are pinned host memory (the remote
region), the frame ring is the local region."""
from __future__ import annotations

from ..runtime.backends import ENGINE_THREADS, Backend, register
from ..runtime.copier import CopyKernel, check_dma
from ..runtime.cuda import gpu_status
from ..runtime.queue_memory import DEFAULT as QUEUE_MEMORY
from . import mlx5
from .backing import DEFAULT_DEPTH, RegisteredBacking


@register
class SoftRnicBackend(RegisteredBacking, Backend):
    """Runtime(backend="softrnic", queues=<SMs>, queue_depth=64,
    queue_memory="gpu" | "host" | "split", engine_threads=4,
    dma="copy-kernel" (4 KiB pages) | "copy-engines" (larger pages))

    queue_memory: dream/runtime/queue_memory.py; dma: who makes the
    engine's copies, a copy kernel or the copy engines (runtime/copier.py)."""
    name = "softrnic"
    define = "DREAM_BACKEND_RNIC"

    @classmethod
    def availability(cls):
        try:
            from .. import _softrnic  # noqa: F401
        except ImportError as e:
            return False, f"the soft RNIC engine (dream._softrnic) is not built: {e}"
        gpu, why = gpu_status()
        if gpu is None:
            return False, f"the soft RNIC moves pages on a GPU: {why}"
        return True, ""

    def __init__(self, rt, queues: int | None = None, queue_depth: int = DEFAULT_DEPTH,
                 queue_memory: str = QUEUE_MEMORY, engine_threads: int = ENGINE_THREADS,
                 dma: str | None = None, **options):
        super().__init__(rt, **options)
        from .softrnic import SoftRnic
        dma = check_dma(dma, rt.page_size)
        self.open_store(rt.page_size)
        self.nic = None
        try:
            self.nic = SoftRnic(device=rt.device, queues=rt.gpu.sms if queues is None else queues,
                                depth=queue_depth, queue_memory=queue_memory,
                                threads=engine_threads)
            self.nic.register_frames(rt.frames_ptr, rt.nframes * rt.page_size)
            self.transport_ptr = self.nic.transport_ptr
            if dma == "copy-kernel":
                self.copier = CopyKernel(rt, self.nic.engine, engine_threads, self.define)
            self.nic.start()
        except BaseException:
            self.close()
            raise

    def nic_address(self, buf):
        return buf.device_ptr

    def before_launch(self):
        self.nic.check_serving()

    def after_launch(self):
        # An error CQE left its QP in the error state (the error is in the
        # record); the next launch gets fresh queues.
        self.nic.recover()

    def counters(self) -> dict:
        return self.nic.counters()

    def describe_error(self, detail) -> str:
        return mlx5.describe_detail(detail, mlx5.VENDOR_SYNDROMES) + " (soft RNIC)"

    def info(self):
        n = self.nic
        return {"backend": self.name,
                "transport": "mlx5 RDMA READ/WRITE posted by GPU threads, served by a "
                             "software RNIC (copies: the dma entry)",
                "queues": n.nqueues, "queue_depth": n.depth, "queue_memory": n.queue_memory,
                "engine_threads": n.engine.threads,
                "dma": "copy-kernel" if self.copier else "copy-engines"}

    def close(self):
        try:
            if self.copier is not None:
                self.copier.stop()
        finally:
            if self.nic is not None:
                self.nic.close()
                self.nic = None
            self.store.close()
