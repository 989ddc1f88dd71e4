"""Pinned host memory mapped into the GPU: backing store of the `direct` and
RNIC backends, and home of queues placed in host memory. Under unified
addressing the GPU uses the host address itself (device_ptr == host_ptr)."""
from __future__ import annotations

import ctypes

import numpy as np


class PinnedBuffer:
    def __init__(self, nbytes: int):
        import cupy
        rt = cupy.cuda.runtime
        self._mem = cupy.cuda.PinnedMemory(nbytes, rt.hostAllocPortable | rt.hostAllocMapped)
        self.host_ptr = self._mem.ptr
        self.device_ptr = rt.hostGetDevicePointer(self._mem.ptr, 0)
        self.nbytes = nbytes
        self.bytes = np.ctypeslib.as_array((ctypes.c_uint8 * nbytes).from_address(self.host_ptr))

    def view(self, dtype, count=None) -> np.ndarray:
        dtype = np.dtype(dtype)
        if count is None:
            count = self.nbytes // dtype.itemsize
        return self.bytes[: count * dtype.itemsize].view(dtype)

    def free(self):
        self.bytes = None
        self._mem = None
