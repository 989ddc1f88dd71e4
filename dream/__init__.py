"""dream: GPU arrays far larger than GPU memory, paged into a ring of GPU
frames by the GPU threads themselves (DREAM, ICS '25).

    rt = dream.Runtime(backend="direct", page_size="4KiB", gpu_memory="1GiB")
    a = rt.array(np.arange(1 << 28, dtype=np.float32))
    k = rt.kernel(src, "name"); k(grid, block, (a, n)); a.to_numpy(); rt.stats()
"""
from .runtime.errors import (BackendUnavailableError, CompileError, ConfigError, DeviceError,
                             DreamError, DreamTimeoutError, ElementTypeError, EngineStuckError,
                             KernelArgumentError, NoDeviceError, OutOfBoundsError,
                             RuntimeClosedError, TransportError)
from .runtime.array import DreamArray
from .runtime.runtime import Runtime
from .runtime.sizes import parse_size
from .runtime.stats import Stats

__version__ = "0.1.0"

__all__ = [
    "Runtime", "DreamArray", "Stats", "parse_size",
    "DreamError", "ConfigError", "NoDeviceError",
    "BackendUnavailableError", "CompileError", "KernelArgumentError", "DeviceError",
    "OutOfBoundsError", "ElementTypeError", "DreamTimeoutError", "TransportError",
    "EngineStuckError", "RuntimeClosedError",
]
