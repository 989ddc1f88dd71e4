"""DreamArray: a host-backed array whose pages the GPU faults into frames."""
from __future__ import annotations

import numpy as np

from . import abi
from .errors import ConfigError, RuntimeClosedError


def check_dtype(dtype, where: str) -> np.dtype:
    try:
        dt = np.dtype(dtype)
    except TypeError as e:
        raise ConfigError(f"{where}: {dtype!r} is not a NumPy dtype ({e})") from None
    if dt.kind not in "biufc" or dt.itemsize not in (1, 2, 4, 8, 16):
        raise ConfigError(f"{where}: dtype {dt} is not a fixed-size numeric type "
                          "(bool, int, uint, float, complex)")
    return dt


def check_shape(shape, where: str) -> tuple:
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    if not shape or any(not isinstance(s, (int, np.integer)) or s <= 0 for s in shape):
        raise ConfigError(f"{where}: shape must be positive ints, got {shape!r}")
    return tuple(int(s) for s in shape)


class DreamArray:
    """Made by Runtime.array/empty/zeros/open. In a kernel it is a
    dream_ptr<T> over the flattened (C-order) elements."""

    def __init__(self, rt, slot: int, shape: tuple, dtype: np.dtype, name: str):
        self.rt = rt
        self.slot = slot
        self.shape = shape
        self.dtype = dtype
        self.name = name
        self.size = int(np.prod(shape))
        self.nbytes = self.size * dtype.itemsize
        self.n_pages = -(-self.nbytes // rt.page_size)
        import cupy
        self.pte = cupy.zeros(self.n_pages, dtype=np.uint64)
        self._freed = False
        self._backing = 0  # the backend's address of page 0, set with the descriptor (abi.h)

    def __len__(self):
        return self.shape[0]

    @property
    def ndim(self):
        return len(self.shape)

    def __repr__(self):
        return (f"DreamArray({self.name!r}, shape={self.shape}, dtype={self.dtype}, "
                f"pages={self.n_pages}, backend={self.rt.backend_name!r})")

    def _check_live(self):
        if self._freed:
            raise RuntimeClosedError(f"array {self.name!r} was freed")
        self.rt._check_open()

    def descriptor(self, backing: int, key: int) -> np.ndarray:
        d = np.zeros((), dtype=abi.ARRAY_DESC)
        d["pte"] = self.pte.data.ptr
        d["n_elems"] = self.size
        d["n_pages"] = self.n_pages
        d["backing"] = backing
        self._backing = backing
        d["key"] = key
        d["elem_size"] = self.dtype.itemsize
        d["slot"] = self.slot
        home = self.rt._home(self.slot)
        if home is not None:
            d["flags"] = abi.ARRAY_HOME
            d["home_frame"] = home
        return d

    def kernel_arg(self, flags: int) -> bytes:
        """The dream_ptr_arg bytes passed by value to a kernel (no hint), with
        the launch's flags (Runtime._launch_flags), and, in a launch that
        evicts nothing, where its homes are (fault.cuh, O7; with PTR_AT_HOME
        every page is there)."""
        self._check_live()
        arg = np.zeros((), dtype=abi.PTR_ARG)
        p = arg["abi"]
        p["rt"] = self.rt._state_ptr
        p["pte"] = self.pte.data.ptr
        p["n"] = self.size
        p["page_shift"] = self.rt.page_shift
        p["slot"] = self.slot
        p["elem_size"] = self.dtype.itemsize
        p["frames"] = self.rt.frames_ptr
        p["backing"] = self._backing
        home = self.rt._home(self.slot)
        if flags & abi.PTR_NO_EVICT and home is not None:
            p["home"] = self.rt.frames_ptr + home * self.rt.page_size
            p["home_dirty"] = self.rt._dirty.data.ptr + home * self.rt._dirty.itemsize
            p["at_home"] = (self.rt._descs.data.ptr + self.slot * abi.ARRAY_DESC.itemsize
                            + abi.ARRAY_DESC.fields["at_home"][1])
        p["flags"] = flags
        return arg.tobytes()

    def flush(self):
        """Writes this array's dirty frames back to its backing store."""
        self._check_live()
        self.rt._flush(self.slot, write=True, drop=False)

    def to_numpy(self) -> np.ndarray:
        """Flushes, then returns a copy of the data in the array's shape."""
        self.flush()
        return self.rt._backend.read(self).reshape(self.shape)

    def copy_from(self, data):
        """Replaces the contents from host data of the same shape: resident
        pages are dropped first (written back if dirty), so kernels see it."""
        self._check_live()
        data = np.asarray(data)
        if data.shape != self.shape:
            raise ConfigError(f"array {self.name!r}: copy_from got shape {data.shape}, "
                              f"array has {self.shape}")
        self.rt._flush(self.slot, write=False, drop=True)
        self.rt._backend.write(self, np.ascontiguousarray(data, dtype=self.dtype))

    def free(self):
        """Drops the array's pages and frees its backing store."""
        if not self._freed:
            self.rt._free_array(self)
            self._freed = True
