"""The DreamError hierarchy. Every failure reaches the user as one of these,
with a message naming what and where (array, index, thread, setting)."""


class DreamError(Exception):
    """Base of every error dream raises."""


class ConfigError(DreamError, ValueError):
    """A setting or argument that cannot work (names the setting)."""


class NoDeviceError(DreamError):
    """No usable NVIDIA GPU (or driver) on this machine."""


class BackendUnavailableError(DreamError):
    """The backend needs hardware or software this machine lacks."""


class CompileError(DreamError):
    """NVRTC rejected a kernel; the message carries its log."""


class KernelArgumentError(DreamError, TypeError):
    """A kernel argument does not match the kernel's parameter."""


class DeviceError(DreamError):
    """An error recorded by the device runtime during a kernel."""


class OutOfBoundsError(DeviceError, IndexError):
    """A kernel indexed a dream array outside its bounds."""


class ElementTypeError(DeviceError, TypeError):
    """A kernel declared dream_ptr<T> with T of another size than the array's."""


class DreamTimeoutError(DeviceError, TimeoutError):
    """A bounded wait (on the GPU or on the host) ran out."""


class TransportError(DeviceError):
    """The transport completed a request with an error (bad key, bad length,
    out-of-range block, ...)."""


class EngineStuckError(TransportError):
    """A host engine's thread did not stop in time (a file I/O or CUDA wait
    that does not return): the engine and the memory it may still write are
    kept for the rest of the process (runtime/engines.py)."""


class RuntimeClosedError(DreamError):
    """The runtime was closed, or is unusable after a timeout."""
