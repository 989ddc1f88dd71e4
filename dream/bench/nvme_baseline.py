"""CPU-driven and GPUDirect Storage baselines for the nvme backend, on the
same file in the same run (`dream bench transfer` calls these; no test):

  cpu_baseline(path, pinned)   pread of 4 KiB blocks into pinned host memory
                               (threads in C++: dream._softnvme.read_blocks),
                               then cudaMemcpy to the GPU; sequential and
                               random, cold (O_DIRECT, page cache dropped) and
                               warm (page cache, file read through first).
  gds_baseline(path, nbytes)   the same reads straight into GPU memory with
                               kvikio, or cuFile through cuda.bindings where
                               kvikio is not installed; gds_status() says
                               which, or why neither.

Each result: GB/s and IOPS over the whole run, and where the time went
(read_s, copy_s)."""
from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

BLOCK = 4096


def _offsets(path, block: int, total: int | None, pattern: str, seed: int) -> np.ndarray:
    nblocks = os.path.getsize(path) // block
    n = nblocks if total is None else min(nblocks, total // block)
    if n == 0:
        raise ValueError(f"{path}: smaller than one {block}-byte block")
    if pattern == "seq":
        idx = np.arange(n, dtype=np.uint64)
    else:
        idx = np.random.default_rng(seed).choice(nblocks, n, replace=False).astype(np.uint64)
    return idx * np.uint64(block)


def drop_cache(path):
    """Asks the kernel to drop the file's pages (cold reads)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def warm_cache(path, chunk=64 << 20):
    with open(path, "rb", buffering=0) as f:
        buf = bytearray(chunk)
        while f.readinto(buf):
            pass


def _result(nbytes, n, read_s, copy_s, **more) -> dict:
    t = read_s + copy_s
    return {"bytes": int(nbytes), "ios": int(n), "seconds": t, "read_s": read_s,
            "copy_s": copy_s, "gbps": nbytes / t / 1e9 if t else 0.0,
            "iops": n / t if t else 0.0, **more}


def cpu_baseline(path, pinned, *, block: int = BLOCK, total: int | None = None,
                 threads: int = 8, seed: int = 0) -> dict:
    """{"seq_cold", "seq_warm", "rand_cold", "rand_warm"} -> result. `pinned`
    is a dream.runtime.pinned.PinnedBuffer (page aligned): reads fill it
    chunk by chunk, each chunk then copied to one GPU buffer of its size.
    `total` bounds the bytes read per pattern (default: the whole file)."""
    import cupy
    from dream import _softnvme
    per = pinned.nbytes // block
    if per == 0:
        raise ValueError(f"pinned buffer of {pinned.nbytes} bytes holds no {block}-byte block")
    dev = cupy.empty(per * block, dtype=np.uint8)
    rt = cupy.cuda.runtime
    out = {}
    for pattern in ("seq", "rand"):
        offs = _offsets(path, block, total, pattern, seed)
        for cache in ("cold", "warm"):
            (drop_cache if cache == "cold" else warm_cache)(path)
            read_s = copy_s = 0.0
            for lo in range(0, offs.size, per):
                chunk = offs[lo:lo + per]
                read_s += _softnvme.read_blocks(str(path), cache == "cold", chunk, block,
                                                pinned.host_ptr, threads)
                t0 = time.perf_counter()
                rt.memcpy(dev.data.ptr, pinned.host_ptr, chunk.size * block,
                          rt.memcpyHostToDevice)
                copy_s += time.perf_counter() - t0
            out[f"{pattern}_{cache}"] = _result(offs.size * block, offs.size, read_s, copy_s,
                                                threads=threads, block=block)
    return out


def gds_status() -> tuple[str | None, str]:
    """("kvikio" | "cufile", "") where one imports, else (None, why)."""
    try:
        import kvikio  # noqa: F401
        return "kvikio", ""
    except ImportError as e:
        why = f"kvikio: {e}"
    try:
        from cuda.bindings import cufile
        cufile.driver_open()
        return "cufile", ""
    except Exception as e:  # missing libcufile, or its driver refuses to open
        return None, f"{why}; cuFile: {type(e).__name__}: {e}"


class _CuFile:
    """One file opened for cuFile reads (cuda.bindings.cufile)."""

    def __init__(self, path, direct: bool):
        from cuda.bindings import cufile
        self.c = cufile
        self.fd = os.open(path, os.O_RDONLY | (os.O_DIRECT if direct else 0))
        d = cufile.Descr()
        d.type = cufile.FileHandleType.OPAQUE_FD
        d.handle["fd"] = self.fd
        self._descr = d
        self.fh = cufile.handle_register(d.ptr)

    def read(self, dev_ptr, size, offset, dev_offset):
        n = self.c.read(self.fh, dev_ptr, size, offset, dev_offset)
        if n != size:
            raise OSError(f"cuFileRead returned {n} of {size} bytes")

    def close(self):
        self.c.handle_deregister(self.fh)
        os.close(self.fd)


def gds_baseline(path, nbytes: int, *, block: int = BLOCK, total: int | None = None,
                 threads: int = 8, seed: int = 0) -> dict:
    """The cpu_baseline patterns read straight into a GPU buffer of `nbytes`
    (reused chunk by chunk) by kvikio or cuFile; {"available": False, "why"}
    where neither works."""
    import cupy
    how, why = gds_status()
    if how is None:
        return {"available": False, "why": why}
    per = nbytes // block
    dev = cupy.empty(per * block, dtype=np.uint8)
    out = {"available": True, "library": how}
    for pattern in ("seq", "rand"):
        offs = _offsets(path, block, total, pattern, seed)
        for cache in ("cold", "warm"):
            (drop_cache if cache == "cold" else warm_cache)(path)
            if how == "kvikio":
                import kvikio  # noqa: F811
                f = kvikio.CuFile(str(path), "r")
                t0 = time.perf_counter()
                for lo in range(0, offs.size, per):
                    futs = [f.pread(dev[i * block:(i + 1) * block], block, int(o))
                            for i, o in enumerate(offs[lo:lo + per])]
                    for fu in futs:
                        fu.get()
                f.close()
            else:
                f = _CuFile(path, cache == "cold")
                buf = dev.data.ptr
                f.c.buf_register(buf, per * block, 0)
                t0 = time.perf_counter()
                try:
                    with ThreadPoolExecutor(threads) as ex:
                        for lo in range(0, offs.size, per):
                            list(ex.map(lambda io: f.read(buf, block, int(io[1]), io[0] * block),
                                        enumerate(offs[lo:lo + per])))
                finally:
                    f.c.buf_deregister(buf)
                    f.close()
            cupy.cuda.runtime.deviceSynchronize()
            out[f"{pattern}_{cache}"] = _result(offs.size * block, offs.size,
                                                time.perf_counter() - t0, 0.0,
                                                threads=threads, block=block)
    return out
