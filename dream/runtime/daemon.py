"""A persistent kernel's life: the copy kernel's (copier.py) and the fault
servers' (serve.py). Its control block is dream/cuda/include/dream/daemon.h,
whose Python mirror DAEMON_CTL is (checked by tests/test_copier.py).

start() zeroes the block, launches the kernel on a stream of its own and
waits, bounded, until every block serves, so that it is resident before the
user's kernel can fill the GPU; stop() sets `stop` and waits, bounded, for
the kernel to end. A block never told to stop leaves at its deadline, the
runtime's host_timeout plus a minute."""
from __future__ import annotations

import time

import numpy as np

from .cuda import launch, wait_stream

DAEMON_CTL = np.dtype([("started", "<u4"), ("stop", "<u4"), ("expired", "<u4"), ("pad", "<u4", (13,))])


class Daemon:
    """Kernel `fn` of `blocks` blocks of `threads`, with `shared` bytes of
    dynamic shared memory, whose parameters are its control block (`ctl`: a
    DAEMON_CTL view of pinned host memory at device address `ctl_ptr`), the
    bytes start() is given, and last its life in ns. `what` names it in
    errors, which are raised as `error`. `on_stop()`, if given, is called
    with `stop` set, for a kernel that reads its stop elsewhere."""

    START_TIMEOUT = 10.0  # s: the blocks are resident within this, or the launch is refused

    def __init__(self, rt, what: str, fn, blocks: int, threads: int, shared: int, ctl, ctl_ptr: int,
                 error, stop_timeout: float, on_stop=None):
        import cupy
        self.what, self.fn, self.blocks, self.threads, self.shared = what, fn, blocks, threads, shared
        self.ctl, self.ctl_ptr, self.error, self.stop_timeout = ctl, ctl_ptr, error, stop_timeout
        self.on_stop = on_stop
        self.stream = cupy.cuda.Stream(non_blocking=True)
        self._life_ns = int((rt.host_timeout_s + 60) * 1e9)
        self.running = False
        self.launches = 0   # kernels started (tests, diagnostics)

    def word(self, name: str) -> int:
        return int(self.ctl[name][0])

    def start(self, params: bytes = b""):
        """Launches it with `params` (8-byte words) after its control block."""
        self.ctl["started"] = self.ctl["stop"] = self.ctl["expired"] = 0
        args = self.ctl_ptr.to_bytes(8, "little") + params + self._life_ns.to_bytes(8, "little")
        launch(self.fn, (self.blocks, 1, 1), (self.threads, 1, 1), args, list(range(0, len(args), 8)),
               self.stream.ptr, self.shared)
        self.running = True
        self.launches += 1
        deadline = time.monotonic() + self.START_TIMEOUT
        while self.word("started") < self.blocks:
            if time.monotonic() > deadline:
                started = self.word("started")
                self.stop()
                raise self.error(f"{self.what}'s {self.blocks} blocks were not all running after "
                                 f"{self.START_TIMEOUT:g} s ({started} were): the GPU is full with other work")
            time.sleep(0)

    def stop(self):
        """Asks its blocks to leave and waits for them (bounded); raises
        `error` if any had left at its deadline."""
        if not self.running:
            return
        self.ctl["stop"] = 1
        if self.on_stop is not None:
            self.on_stop()
        # still running if this wait fails: a later stop (close) waits again
        wait_stream(self.stream, self.stop_timeout, f"{self.what}'s exit")
        self.running = False
        if self.word("expired"):
            raise self.error(f"{self.word('expired')} block(s) of {self.what} left at their deadline, "
                             "before the runtime stopped them")
