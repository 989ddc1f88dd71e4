"""The fault servers (dream/cuda/include/dream/serve.cuh, fault.cuh O8):
warps of a kernel of their own that load the pages a served launch's
misses ask for. A launch that evicts nothing and whose arrays are not all
at home runs the kernel's served build, which has no fault path inline; the
runtime starts the servers before it (a daemon: daemon.py, resident before
the kernel can fill the GPU) and stops them after it.

Why: in the general build, a call to the slow path, even when it is not
taken, made CC's first hook through entries 255 ms against 139 without it,
and a fault's loads are the faulting warp's own round trips (Kronecker 22,
H100, bench/results-h100/session32). The queue (abi.h dream_serve_queue)
has a slot for every frame, and is reset before each start.

`fault_servers` (Runtime) is how many server warps run, in blocks of
SERVE_THREADS // 32."""
from __future__ import annotations

import numpy as np

from . import abi
from .compile import FAULT_REGISTERS, compile_source
from .daemon import DAEMON_CTL, Daemon
from .errors import ConfigError, DeviceError
from .pinned import PinnedBuffer

SOURCE = '#include "dream/serve.cuh"\n'
SERVE_THREADS = 128   # serve.cuh DREAM_SERVE_THREADS
STOP_TIMEOUT = 10.0   # s: a server's poll sees the host's stop within microseconds


def default_servers(sms: int) -> int:
    """Two server warps an SM."""
    return 2 * sms


def check_servers(n, sms: int) -> int:
    """`fault_servers` checked: None gives the default."""
    if n is None:
        return default_servers(sms)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= n <= 32 * sms:
        raise ConfigError(f"fault_servers={n!r}: a number of warps from 1 to {32 * sms} (32 an SM)")
    return int(n)


class FaultServers:
    """The fault servers of runtime `rt`: `warps` warps, and their queue."""

    def __init__(self, rt, warps: int):
        import cupy
        image, low = compile_source(SOURCE, ("dream_serve",), rt.gpu.arch, (rt._backend.define,),
                                    (f"--maxrregcount={FAULT_REGISTERS}",), "serve.cu")
        fn = rt._load(image).function(low["dream_serve"])  # loaded now, as the copy kernel is
        n = rt.nframes
        self.queue = cupy.zeros(abi.SERVE_QUEUE.itemsize + n * 8 + n * abi.SERVE_REQ.itemsize, dtype=np.uint8)
        self.ptr = self.queue.data.ptr
        self._seq_ptr = self.ptr + abi.SERVE_QUEUE.itemsize
        # seq's value at each start (abi.h), copied there by a copy engine: a
        # CuPy kernel's module, loaded at its first use while the copy kernel
        # runs, would wait for the GPU to go idle
        self._seq0 = cupy.arange(n, dtype=np.uint64)
        self._ctl = PinnedBuffer(DAEMON_CTL.itemsize)
        self._ctl.bytes[:] = 0
        per = SERVE_THREADS // 32
        self.daemon = Daemon(rt, "the fault servers", fn, -(-warps // per), SERVE_THREADS, 0,
                             self._ctl.bytes.view(DAEMON_CTL), self._ctl.device_ptr, DeviceError, STOP_TIMEOUT,
                             self._set_stop)
        self._state_ptr = rt._state_ptr
        self._stop_stream = cupy.cuda.Stream(non_blocking=True)  # not behind the servers on theirs

    def start(self):
        """Resets the queue and starts the servers after it, on their stream."""
        self.stop()  # servers left running by an interrupted launch
        self.reset()
        self.daemon.start(self._state_ptr.to_bytes(8, "little"))

    def reset(self):
        """The queue as abi.h has it before a start: seq[i] = i, head = tail
        = stop = 0 (on the servers' stream)."""
        import cupy
        rt, stream = cupy.cuda.runtime, self.daemon.stream.ptr
        rt.memsetAsync(self.ptr, 0, abi.SERVE_QUEUE.itemsize, stream)
        rt.memcpyAsync(self._seq_ptr, self._seq0.data.ptr, self._seq0.nbytes, rt.memcpyDeviceToDevice, stream)

    def stop(self):
        self.daemon.stop()

    def _set_stop(self):
        """The queue's stop (serve.cuh: the servers read it there, not in host memory)."""
        import cupy
        off = abi.SERVE_QUEUE.fields["stop"][1]
        cupy.cuda.runtime.memsetAsync(self.ptr + off, 1, 4, self._stop_stream.ptr)
