"""Where the soft engines' queues live (`queue_memory=` of backends
`softrnic` and `nvme`). GPU threads write each queue's submissions and the
engine reads them; the engine writes its completions and GPU threads poll
them.

  "gpu" (the default): every queue in GPU memory (DREAM, BaM: what a NIC or
      SSD that reads GPU memory peer to peer uses).
  "host": every queue in pinned host memory mapped into the GPU
      (GPU-NVMe-Direct's write-only tier).
  "split": SQs in pinned host memory, CQs in GPU memory: each side reads its
      own memory. DESIGN.md's queue placement names "gpu" and "host" only;
      this one is for engines that run on the host (softrnic's engine="host",
      nvme), and trades throughput under load for latency. softrnic's GPU
      engine, its default, reads GPU queues in GPU memory and is faster on
      every count (serial fault 11.7 us, H100, session 43). With SQs in
      GPU memory the engine fetches each pass's new entries by DMA, a
      copy-engine round trip of 7-8 us (H200) in the path of every fault. Measured in one call (`dream bench
      transfer --data 256MiB --page 4KiB,64KiB`, two runs; H200, then H100),
      "split" against "gpu": softrnic serial fault 26.5-30.4 against
      31.0-38.7 us (H100: 25.4-28.0 against 33.6-35.4), 4 KiB gather 7.3-8.0
      against 6.6-6.9 GB/s (9.1 against 8.5-8.7), but 64 KiB stream
      32.9-34.2 against 35.9-36.8 GB/s (30-33 against 34-35) and 64 KiB
      gather 1.7 against 2.7 GB/s (1.1 against 2.1). Not yet taken apart.
      Every WQE crosses PCIe before its writer's system fence. A ringer that
      did not write the run's last WQE reads its first bytes back across
      PCIe, but ringing without that read (a diagnostic) left the 64 KiB
      gather where it was (bench/results-h100/session23). At the transfer
      benchmark's 8 GiB (H100, session 42): serial fault 17.6-19.2 against
      25.5-27.7 us, but 4 KiB stream 2.2-2.4 against 29.6-30.0 GB/s and
      gather 2.6-2.8 against 25.0-25.5 GB/s (3.3-3.6 and 3.3 GB/s before
      that session's queue path: bench/results-h100/session42)."""
from __future__ import annotations

import numpy as np

from .errors import ConfigError
from .pinned import PinnedBuffer

# queue_memory: (where the SQs lie, where the CQs lie)
PLACEMENTS = {"gpu": ("gpu", "gpu"), "host": ("host", "host"), "split": ("host", "gpu")}
DEFAULT = "gpu"


def placement(queue_memory) -> tuple[str, str]:
    """(SQ side, CQ side) of `queue_memory`, each "gpu" or "host"."""
    if queue_memory not in PLACEMENTS:
        raise ConfigError(f"queue_memory={queue_memory!r}: one of "
                          + ", ".join(repr(k) for k in PLACEMENTS))
    return PLACEMENTS[queue_memory]


class QueueMemory:
    """`nbytes` of zeroed memory on `side`: GPU memory, or pinned host memory
    whose host address is its device address (unified addressing), so that
    `ptr` serves GPU threads and engine alike."""

    def __init__(self, nbytes: int, side: str):
        import cupy
        self.side = side
        if side == "gpu":
            self.buf = cupy.zeros(nbytes, dtype=np.uint8)
            self.ptr = self.buf.data.ptr
        else:
            self.buf = PinnedBuffer(nbytes)
            self.buf.bytes[:] = 0
            self.ptr = self.buf.device_ptr

    def store(self, off: int, data: np.ndarray):
        data = data.view(np.uint8).ravel()
        if self.side == "gpu":
            self.buf[off:off + data.size].set(data)
        else:
            self.buf.bytes[off:off + data.size] = data

    def free(self):
        if isinstance(self.buf, PinnedBuffer):
            self.buf.free()
        self.buf = None
