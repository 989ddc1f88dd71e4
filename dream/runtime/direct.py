"""The `direct` backend: pages live in pinned host memory and the faulting
warp copies them itself (device side: dream/cuda/include/dream/direct.cuh).
Needs only a GPU."""
import numpy as np

from . import abi
from .backends import Backend, register
from .cuda import gpu_status
from .pinned import PinnedStore


@register
class DirectBackend(Backend):
    name = "direct"
    define = "DREAM_BACKEND_DIRECT"
    sized_by_registers = True   # direct.cuh, DREAM_COPY_UNROLL

    @classmethod
    def availability(cls):
        gpu, why = gpu_status()
        return (True, "") if gpu else (False, why)

    def __init__(self, rt, **options):
        import cupy
        super().__init__(rt, **options)
        self.store = PinnedStore(rt.page_size)
        self._locks = cupy.zeros(abi.DIRECT_LOCKS, dtype=np.uint32)  # direct.cuh: lone lanes' staging
        self.transport_ptr = self._locks.data.ptr

    def attach(self, arr, data):
        return self.store.attach(arr, data).device_ptr, 0

    def detach(self, arr):
        self.store.detach(arr)

    def read(self, arr):
        return self.store.read(arr)

    def write(self, arr, data):
        self.store.write(arr, data)

    def info(self):
        return {"backend": self.name, "transport": "warp copies from pinned host memory (zero-copy)"}

    def close(self):
        self.store.close()
