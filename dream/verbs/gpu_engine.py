"""The soft RNIC's GPU engine (`engine="gpu"` of backend `softrnic`): the
warps of a resident kernel (runtime/resident.py) serve the QPs' WQEs in
place of host threads, so that no CPU stands in a fault's path
(dream/cuda/include/dream/softrnic_engine.cuh says how and why). It checks
each WQE and builds each CQE with the host engine's code (softrnic.h), and
takes that engine's region table before each launch: keys are the host
engine's, registered there. Its memory (dream_softrnic_gpu: the QP states,
kept across launches, and its counts) is GPU memory it alone writes while it
runs; the host reads and resets it between launches."""
from __future__ import annotations

import numpy as np

from ..runtime.errors import ConfigError
from ..runtime.pinned import PinnedBuffer
from ..runtime.resident import COPIER_CTL, Control, ResidentKernel
from . import mlx5

SOURCE = '#include "dream/softrnic_engine.cuh"\n'


class GpuEngine:
    """Serves `nqps` QPs whose device records (dream_rnic_queue) lie at
    `qps` with `blocks` blocks, an SM each; `engine` is the host engine
    (dream._softrnic.Engine) whose regions it takes."""

    def __init__(self, rt, engine, qps: int, nqps: int, blocks: int, max_message: int, define: str):
        import cupy
        if not isinstance(blocks, int) or not 1 <= blocks <= max(1, rt.gpu.sms // 4):
            raise ConfigError(f"engine_threads={blocks!r}: the GPU engine takes an SM a block, from 1 "
                              f"to a quarter of the GPU's {rt.gpu.sms} SMs")
        per_block = mlx5.SOFTRNIC_GPU_THREADS  # QPs a block serves at most: 32 a warp, one a lane
        if nqps > per_block * blocks:
            raise ConfigError(f"{nqps} queues need {-(-nqps // per_block)} GPU engine blocks "
                              f"(engine_threads={blocks}): a warp serves at most 32")
        self.engine, self.nqps, self.max_message = engine, nqps, max_message
        self._qps = qps
        self._state = cupy.zeros(nqps * mlx5.SOFTRNIC_QP_STATE.itemsize, dtype=np.uint8)
        self._counts = cupy.zeros(mlx5.SOFTRNIC_COUNTS.itemsize, dtype=np.uint8)
        self._top = cupy.zeros(mlx5.SOFTRNIC_GPU.itemsize, dtype=np.uint8)
        self._regions = cupy.zeros(0, dtype=np.uint8)
        self._table = None  # the region table the engine has (bytes)
        self._ctl = PinnedBuffer(COPIER_CTL.itemsize)
        self._ctl.bytes[:] = 0
        self.kernel = ResidentKernel(rt, SOURCE, "dream_softrnic_serve", define, blocks,
                                     mlx5.SOFTRNIC_GPU_THREADS, 0, Control(self._ctl), self._top.data.ptr,
                                     "the soft RNIC's GPU engine")

    def start(self):
        """Launches the engine, with the host engine's regions."""
        self.stop()
        table = self.engine.region_table()
        if table != self._table:  # arrays were made or freed since the last launch
            self._upload(table)
        self.kernel.launch()

    def _upload(self, raw: bytes):
        import cupy
        table = np.frombuffer(raw, dtype=np.uint8)
        if table.size > self._regions.size:
            self._regions = cupy.zeros(2 * table.size, dtype=np.uint8)
        self._regions[:table.size].set(table)
        top = np.zeros((), dtype=mlx5.SOFTRNIC_GPU)
        top["qps"], top["state"] = self._qps, self._state.data.ptr
        top["regions"], top["counts"] = self._regions.data.ptr, self._counts.data.ptr
        top["max_message"], top["nqps"] = self.max_message, self.nqps
        top["nregions"] = table.size // mlx5.SOFTRNIC_REGION.itemsize
        self._top.set(np.frombuffer(top.tobytes(), dtype=np.uint8))
        cupy.cuda.get_current_stream().synchronize()  # the uploads, before the engine's stream reads them
        self._table = raw

    def stop(self):
        self.kernel.end()

    @property
    def running(self) -> bool:
        return self.kernel.running

    def states(self) -> np.ndarray:
        """Every QP's dream_softrnic_qp_state (between launches)."""
        return self._state.get().view(mlx5.SOFTRNIC_QP_STATE)

    def reset(self, i: int):
        """QP i as fresh (its queue memory re-initialized by the caller)."""
        n = mlx5.SOFTRNIC_QP_STATE.itemsize
        self._state[i * n:(i + 1) * n] = 0

    def counters(self) -> dict:
        c = self._counts.get().view(mlx5.SOFTRNIC_COUNTS)[0]
        return {name: int(c[name]) for name in mlx5.SOFTRNIC_COUNTS.names}

    def close(self):
        try:
            self.stop()
        finally:
            if self._ctl is not None:
                self._ctl.free()
                self._ctl = None
