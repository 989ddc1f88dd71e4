"""Backend `softrnic`: the RNIC transport (device side
dream/cuda/include/dream/rnic.cuh, the same code as `rnic`) served by the
software RNIC (dream/cuda/softrnic.cpp, Python face dream/verbs/softrnic.py):
GPU threads post mlx5 RDMA READ/WRITE WQEs and ring doorbells; an engine
checks them as a NIC would: warps of a kernel beside each launch that move
the pages themselves (engine="gpu", the default: gpu_engine.py), or host
threads that have them moved by a copy kernel or the GPU's copy engines
(engine="host", dma=). Backing stores are pinned host memory (the remote region),
the frame ring is the local region."""
from __future__ import annotations

from ..runtime.backends import ENGINE_THREADS, Backend, register
from ..runtime.copier import CopyKernel, check_dma
from ..runtime.cuda import gpu_status
from ..runtime.errors import ConfigError
from ..runtime.queue_memory import DEFAULT as QUEUE_MEMORY
from . import mlx5
from .backing import DEFAULT_DEPTH, RegisteredBacking
from .gpu_engine import GpuEngine

# Who serves the QPs: the GPU engine by default, which measured faster on
# every figure of the transfer benchmark in one run (H100, 8 GiB, against
# host threads with their default dma): serial 4 KiB fault 11.7 against
# 26.0 us, 4 KiB stream 42.6 against 29.8 GB/s, 4 KiB gather 31.6 against
# 24.7 GB/s, 64 KiB stream 44.0 against 40.5 GB/s (bench/results-h100/
# session43). It takes engine_threads SMs while a launch runs; host threads
# take none with dma="copy-engines".
ENGINES = ("gpu", "host")
ENGINE = "gpu"


@register
class SoftRnicBackend(RegisteredBacking, Backend):
    """Runtime(backend="softrnic", queues=<SMs>, queue_depth=64,
    queue_memory="gpu" | "host" | "split", engine="gpu" | "host",
    engine_threads=4, dma="copy-kernel" (4 KiB pages) | "copy-engines"
    (larger pages))

    queue_memory: dream/runtime/queue_memory.py; engine: a GPU kernel's
    warps (gpu_engine.py) or host threads, engine_threads its blocks (an SM
    each) or its threads; dma: who makes a host engine's copies, a copy
    kernel or the copy engines (runtime/copier.py)."""
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

    @classmethod
    def hardware(cls) -> str:
        """What serves the WQEs, for `dream info`."""
        return ("software RNIC, no NIC involved: its engine a GPU kernel beside each launch "
                "(engine='gpu', the default) or host threads (engine='host')")

    def __init__(self, rt, queues: int | None = None, queue_depth: int = DEFAULT_DEPTH,
                 queue_memory: str = QUEUE_MEMORY, engine: str = ENGINE,
                 engine_threads: int = ENGINE_THREADS, dma: str | None = None, **options):
        super().__init__(rt, **options)
        from .softrnic import SoftRnic
        if engine not in ENGINES:
            raise ConfigError(f"engine={engine!r}: one of " + ", ".join(repr(e) for e in ENGINES))
        if engine == "gpu" and dma is not None:
            raise ConfigError(f"dma={dma!r} is for engine='host': the GPU engine (engine='gpu', the default) "
                              "moves its pages itself and takes no dma")
        dma = check_dma(dma, rt.page_size) if engine == "host" else None
        self.open_store(rt.page_size)
        self.nic = None
        try:
            self.nic = SoftRnic(device=rt.device, queues=rt.gpu.sms if queues is None else queues,
                                depth=queue_depth, queue_memory=queue_memory,
                                threads=1 if engine == "gpu" else engine_threads,
                                local_engine=engine == "gpu")
            self.nic.register_frames(rt.frames_ptr, rt.nframes * rt.page_size)
            self.transport_ptr = self.nic.transport_ptr
            if engine == "gpu":
                self.resident = self.nic.gpu = GpuEngine(rt, self.nic.engine, self.nic.records_ptr,
                                                         self.nic.nqueues, engine_threads,
                                                         SoftRnic.MAX_MESSAGE, self.define)
            elif dma == "copy-kernel":
                self.resident = CopyKernel(rt, self.nic.engine, engine_threads, self.define)
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
        served = ("whose engine is a GPU kernel (no NIC)" if n.gpu is not None
                  else "(copies: the dma entry)")
        d = {"backend": self.name,
             "transport": f"mlx5 RDMA READ/WRITE posted by GPU threads, served by a software RNIC {served}",
             "queues": n.nqueues, "queue_depth": n.depth, "queue_memory": n.queue_memory}
        if n.gpu is not None:
            return d | {"engine": "gpu", "engine_blocks": n.gpu.kernel.blocks}
        return d | {"engine": "host", "engine_threads": n.engine.threads,
                    "dma": "copy-kernel" if self.resident else "copy-engines"}

    def close(self):
        try:
            if self.resident is not None:
                self.resident.stop()
        finally:
            if self.nic is not None:
                self.nic.close()
                self.nic = None
            self.store.close()
