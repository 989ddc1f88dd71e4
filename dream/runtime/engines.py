"""Stopping a host engine (the soft NVMe controller, the soft RNIC) whose
threads may not end: a thread blocked in a file I/O or a CUDA wait cannot be
made to return, and it goes on using the engine and the memory its queues
live in (dream/cuda/engine.h). Such an engine, and that memory, are kept for
the rest of the process instead of being freed under it."""
from __future__ import annotations

import ctypes

from .errors import TransportError

_kept: list = []   # (engine, memory) of engines whose threads did not end


def stop_engine(engine, what: str, *memory, timeout: float | None = None):
    """engine.stop(); if a thread has not ended within `timeout` s (the
    engine's own bound by default), keeps `engine` and `memory` alive and
    raises TransportError naming `what` and the threads."""
    try:
        engine.stop() if timeout is None else engine.stop(timeout=timeout)
    except RuntimeError as e:
        kept = (engine, memory)
        _kept.append(kept)
        # one more reference, never dropped: not even the interpreter's exit
        # frees them (the engine's release would wait for its threads again)
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(kept))
        raise TransportError(f"{what} did not stop ({e}); it and its queue memory are kept "
                             "for the rest of the process") from e
