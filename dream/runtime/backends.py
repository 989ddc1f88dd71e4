"""The backend registry: one class per transport, chosen by name.

A backend is the host half of a transport. Its device half is a header
(dream/cuda/include/dream/<name>.cuh) defining dream_transport_io(), selected
at kernel compile time by ``Backend.define``; the page table and the frame
ring never see which one runs.

What a backend does for the runtime:

- ``availability()`` (classmethod): ``(True, "")`` or ``(False, why)`` for
  this machine; ``dream info`` prints it and ``Runtime`` refuses to start an
  unavailable backend with that reason.
- ``__init__(rt, **options)``: set up queues/engines for the runtime ``rt``
  (see ``Runtime``: ``page_size``, ``page_shift``, ``nframes``,
  ``frames_ptr``, ``device``); unknown options raise ``ConfigError``.
- ``transport_ptr``: device address stored in ``dream_rt_state.transport``.
- ``attach(arr, data)``: create the backing store of a new array (``data``
  is the initial ndarray, or None for zeros) and return ``(backing, key)``
  for its descriptor; ``detach(arr)`` frees it.
- ``read(arr)`` / ``write(arr, data)``: host copy of / into the backing
  store (the runtime flushes and invalidates frames around these).
- ``before_launch()`` / ``after_launch()``: e.g. check an engine is serving;
  ``sync()``: after a flush, make the written pages durable.
- ``counters()``: host-side counters merged into ``rt.stats()``;
  ``describe_error(detail)``: words for a transport error record.
- ``info()``: a dict for ``rt.describe()``; ``close()``.
"""
from __future__ import annotations

from .errors import ConfigError

# The soft engines' threads, each serving its share of the queues: 4 doubled
# the 4 KiB gather of 1 on an H100, on softrnic and nvme
# (bench/results-h100/session9/engine_threads.txt). nvme, whose threads also
# read the page cache, takes more where there are cores (nvme/backend.py).
ENGINE_THREADS = 4

_REGISTRY: dict[str, type] = {}


def register(cls):
    _REGISTRY[cls.name] = cls
    return cls


def backend_class(name: str):
    _load_all()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ConfigError(
            f"unknown backend {name!r}; choose one of {sorted(_REGISTRY)}") from None


def all_backends() -> dict[str, type]:
    _load_all()
    return dict(_REGISTRY)


def _load_all():
    # Imported here, not at module top, so that each backend module can import
    # this registry without a cycle.
    from . import direct  # noqa: F401
    from ..verbs import backend as _softrnic  # noqa: F401
    from ..verbs import rnic_backend as _rnic  # noqa: F401
    from ..nvme import backend as _nvme  # noqa: F401


class Backend:
    name = ""
    define = ""
    # a kernel of the backend's own that runs beside each launch
    # (runtime/resident.py): a soft engine's copy kernel (dma="copy-kernel":
    # runtime/copier.py) or the soft RNIC's GPU engine (verbs/gpu_engine.py)
    resident = None
    # whether the backend's device code sizes its copies by the build's
    # register cap (DREAM_REGISTER_CAP: compile.py, kernel.py)
    sized_by_registers = False

    @classmethod
    def availability(cls) -> tuple[bool, str]:
        raise NotImplementedError

    def __init__(self, rt, **options):
        if options:
            raise ConfigError(
                f"backend {self.name!r} takes no option(s) {sorted(options)}")
        self.rt = rt

    transport_ptr = 0

    def attach(self, arr, data):
        raise NotImplementedError

    def detach(self, arr):
        raise NotImplementedError

    def read(self, arr):
        raise NotImplementedError

    def write(self, arr, data):
        raise NotImplementedError

    def before_launch(self):
        pass

    def sync(self):
        """Makes written-back pages durable (a file backend's fsync)."""

    def after_launch(self):
        pass

    def counters(self) -> dict:
        return {}

    def describe_error(self, detail) -> str:
        """Words for the 4 detail fields of a DREAM_ERR_TRANSPORT record."""
        d = [int(x) for x in detail]
        return f"status {d[0]:#x}, queue {d[1]}, slot {d[2]}, opcode {d[3]:#x}"

    def info(self) -> dict:
        return {"backend": self.name}

    def close(self):
        pass
