"""Stopping a host engine (the soft NVMe controller, the soft RNIC) whose
threads may not end: a thread blocked in a file I/O or a CUDA wait cannot be
made to return, and it goes on using the engine and the memory its queues
live in (dream/cuda/engine.h). Such an engine, and that memory, are kept for
the rest of the process instead of being freed under it."""
from __future__ import annotations

import ctypes

from .errors import EngineStuckError

_kept: list = []   # what engines whose threads did not end may still use


def keep(*objs):
    """Keeps `objs` for the rest of the process: one more reference, never
    dropped, so that not even the interpreter's exit frees them (an engine's
    release would wait for its threads again)."""
    _kept.append(objs)
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(objs))


def stop_engine(engine, what: str, *memory, timeout: float | None = None):
    """engine.stop(); if a thread has not ended within `timeout` s (the
    engine's own bound by default), keeps `engine` and `memory` and raises
    EngineStuckError naming `what` and the threads. The caller keeps the rest
    of what the engine may write (its backend, the frame ring: Runtime.close)."""
    try:
        engine.stop(timeout=timeout)  # None: the engine's stop_timeout
    except RuntimeError as e:
        keep(engine, *memory)
        raise EngineStuckError(f"{what} did not stop ({e}); it and the memory it may still write "
                               "are kept for the rest of the process") from e
