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
        from cuda.bindings import driver
        from .cuda import check
        self.device_ptr = int(check(driver.cuMemHostGetDevicePointer(self._mem.ptr, 0),
                                    "cuMemHostGetDevicePointer"))
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


class PinnedStore:
    """Backing stores of a runtime's arrays in pinned host memory, by slot:
    what `direct` and the RNIC backends share."""

    def __init__(self, page_size: int):
        self.page_size = page_size
        self._bufs: dict[int, PinnedBuffer] = {}

    def attach(self, arr, data) -> PinnedBuffer:
        buf = PinnedBuffer(arr.n_pages * self.page_size)
        if data is None:
            buf.bytes[:] = 0
        else:
            buf.view(arr.dtype, arr.size)[:] = data.reshape(-1)
            buf.bytes[arr.nbytes:] = 0
        self._bufs[arr.slot] = buf
        return buf

    def buffer(self, arr) -> PinnedBuffer:
        return self._bufs[arr.slot]

    def read(self, arr) -> np.ndarray:
        return self._bufs[arr.slot].view(arr.dtype, arr.size).copy()

    def write(self, arr, data):
        self._bufs[arr.slot].view(arr.dtype, arr.size)[:] = data.reshape(-1)

    def detach(self, arr):
        self._bufs.pop(arr.slot).free()

    def close(self):
        for buf in self._bufs.values():
            buf.free()
        self._bufs.clear()
