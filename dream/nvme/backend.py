"""Backend `nvme`: the NVMe transport (device side
dream/cuda/include/dream/nvme.cuh) served by the software NVMe controller
over files (dream/cuda/softnvme.cpp, host side dream/nvme/controller.py):
GPU threads post NVMe READ/WRITE commands and ring SQ tail doorbells; the
controller reads and writes the arrays' files and has the pages moved by a
copy kernel or the GPU's copy engines (dma=). One namespace per file: an array's key is its
namespace id, its backing the byte offset 0.

Files: rt.array(data, path=...) and rt.zeros(..., path=...) write the array
to `path` (kept after the runtime closes), or to a temporary file in
`directory` (deleted with the array); rt.open(path, dtype, shape, mode) maps
an existing file ("r", "r+") or a new one ("w+"). Data written by kernels is
in the file after arr.flush()/to_numpy(); sync() (also run at close) makes it
durable with NVMe Flush commands."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np

from ..runtime.backends import Backend, register
from ..runtime.copier import CopyKernel, check_dma
from ..runtime.cuda import gpu_status
from ..runtime.errors import ConfigError, EngineStuckError, TransportError
from ..runtime.queue_memory import DEFAULT as QUEUE_MEMORY
from ..runtime.sizes import parse_size
from . import wire
from .controller import real_devices

DEFAULT_DEPTH = 64

# Engine threads: half the cores this process may use, at most 8 (the soft
# RNIC's 4 is the shared default, runtime/backends.py). Each reads the page
# cache itself (softnvme.cpp, Worker::read_cached), so the warm 4 KiB gather
# scales with them: H100, 16 cores, 4 -> 8 threads 4.9-5.6 -> 6.0-6.1 GB/s,
# 0.41-0.44x -> 0.48-0.50x pread + copy (bench/results-h100/session24).
ENGINE_THREADS = max(1, min(8, len(os.sched_getaffinity(0)) // 2))


@register
class NvmeBackend(Backend):
    """Runtime(backend="nvme", queues=<SMs>, queue_depth=64, queue_memory="gpu" | "host" | "split",
    lba_size=512, cache="cold" | "warm", directory=None,
    engine_threads=<half the cores, at most 8>, io_threads=8, staging="64MiB",
    dma="copy-kernel" (4 KiB pages) | "copy-engines" (larger pages))

    cache="cold" reads the files with O_DIRECT (storage speed); "warm" through
    the page cache. dma: who makes the controller's copies, the copy engines
    or a copy kernel (runtime/copier.py)."""
    name = "nvme"
    define = "DREAM_BACKEND_NVME"

    @classmethod
    def availability(cls):
        try:
            from .. import _softnvme  # noqa: F401
        except ImportError as e:
            return False, f"the software NVMe controller (dream._softnvme) is not built: {e}"
        gpu, why = gpu_status()
        if gpu is None:
            return False, f"the software NVMe controller moves pages on a GPU: {why}"
        return True, ""

    @classmethod
    def hardware(cls) -> str:
        """What serves the commands here, for `dream info`."""
        devs = real_devices()
        seen = (f"NVMe controller(s) {', '.join(devs)} present but not mapped by dream"
                if devs else "no NVMe device present")
        return f"software NVMe controller over files ({seen})"

    def __init__(self, rt, queues: int | None = None, queue_depth: int = DEFAULT_DEPTH,
                 queue_memory: str = QUEUE_MEMORY, lba_size: int = 512, cache: str = "cold",
                 directory: str | None = None, engine_threads: int = ENGINE_THREADS, io_threads: int = 8,
                 staging="64MiB", dma: str | None = None, **options):
        super().__init__(rt, **options)
        from .controller import SoftNvme
        dma = check_dma(dma, rt.page_size)
        if cache not in ("cold", "warm"):
            raise ConfigError(f"cache={cache!r}: 'cold' (O_DIRECT) or 'warm' (page cache)")
        if directory is not None and not Path(directory).is_dir():
            raise ConfigError(f"directory={directory!r} is not a directory")
        self.cold = cache == "cold"
        self._tmpdir = None
        self.directory = directory
        self._files: dict[int, tuple[int, Path, bool, bool]] = {}  # slot: nsid, path, temp, writable
        self.ctrl = None
        try:
            self.ctrl = SoftNvme(device=rt.device, queues=rt.gpu.sms if queues is None else queues,
                                 depth=queue_depth, queue_memory=queue_memory,
                                 page_size=rt.page_size, frames_ptr=rt.frames_ptr,
                                 nframes=rt.nframes, lba_size=lba_size, threads=engine_threads,
                                 io_threads=io_threads, staging=parse_size(staging, "staging"))
            self.transport_ptr = self.ctrl.transport_ptr
            if dma == "copy-kernel":
                self.resident = CopyKernel(rt, self.ctrl.engine, engine_threads, self.define)
            self.ctrl.start()
        except BaseException:
            self.close()
            raise

    # -- files ------------------------------------------------------------------

    def _size(self, arr) -> int:
        """File bytes for an array dream creates: whole LBAs."""
        lba = self.ctrl.lba_size
        return -(-arr.nbytes // lba) * lba

    def _temp_path(self, arr) -> Path:
        if self.directory is None and self._tmpdir is None:
            self._tmpdir = tempfile.TemporaryDirectory(prefix="dream-nvme-")
        d = Path(self.directory or self._tmpdir.name)
        fd, name = tempfile.mkstemp(prefix=f"array{arr.slot}-", suffix=".nvme", dir=d)
        os.close(fd)
        return Path(name)

    def _add(self, arr, path: Path, temp: bool, writable: bool):
        nsid = self.ctrl.add_namespace(str(path), writable, self.cold)
        self._files[arr.slot] = (nsid, path, temp, writable)
        return 0, nsid

    def attach(self, arr, data, path=None):
        temp = path is None
        p = self._temp_path(arr) if temp else Path(path)
        try:
            with open(p, "wb") as f:
                if data is not None:
                    f.write(np.ascontiguousarray(data, dtype=arr.dtype).reshape(-1).data)
                f.truncate(self._size(arr))
            return self._add(arr, p, temp, True)
        except OSError as e:
            if temp:
                p.unlink(missing_ok=True)
            raise ConfigError(f"array {arr.name!r}: cannot write its file {str(p)!r}: {e}") from None
        except BaseException:
            if temp:
                p.unlink(missing_ok=True)
            raise

    def open_file(self, arr, path, mode: str):
        """Maps `path` as arr's backing (Runtime.open); returns (backing, key)."""
        p = Path(path)
        lba = self.ctrl.lba_size
        where = f"rt.open({str(p)!r}, mode={mode!r})"
        if mode == "w+":
            try:
                with open(p, "wb") as f:
                    f.truncate(self._size(arr))
            except OSError as e:
                raise ConfigError(f"{where}: cannot create the file: {e}") from None
            return self._add(arr, p, False, True)
        if not p.is_file():
            raise ConfigError(f"{where}: no such file (mode 'w+' creates one)")
        size = p.stat().st_size
        if size < arr.nbytes:
            raise ConfigError(f"{where}: the file has {size:,} bytes, shorter than the array's "
                              f"{arr.nbytes:,} ({arr.size:,} x {arr.dtype})")
        if size % lba:
            raise ConfigError(f"{where}: the file's size {size:,} is not a multiple of the "
                              f"LBA size {lba} (a namespace is whole blocks; Runtime(lba_size=...))")
        if mode == "r+" and not os.access(p, os.W_OK):
            raise ConfigError(f"{where}: the file is read-only; open it with mode='r'")
        if not os.access(p, os.R_OK):
            raise ConfigError(f"{where}: the file is not readable")
        return self._add(arr, p, False, mode == "r+")

    def path(self, arr) -> Path:
        """The file behind `arr`."""
        return self._files[arr.slot][1]

    def detach(self, arr):
        nsid, path, temp, _ = self._files.pop(arr.slot)
        self.ctrl.remove_namespace(nsid)
        if temp:
            path.unlink(missing_ok=True)

    def read(self, arr):
        _, path, _, _ = self._files[arr.slot]
        return np.fromfile(path, dtype=arr.dtype, count=arr.size)

    def write(self, arr, data):
        _, path, _, writable = self._files[arr.slot]
        if not writable:
            raise ConfigError(f"array {arr.name!r} maps {str(path)!r} read-only (mode 'r')")
        with open(path, "r+b") as f:
            f.write(np.ascontiguousarray(data, dtype=arr.dtype).reshape(-1).data)

    def sync(self):
        """Makes every write the controller completed durable (NVMe Flush per namespace)."""
        nsids = [f[0] for f in self._files.values() if f[3]]
        if nsids:
            self.ctrl.flush(nsids)

    # -- runtime hooks ---------------------------------------------------------------

    def before_launch(self):
        self.ctrl.check_serving()

    def counters(self) -> dict:
        return self.ctrl.counters()

    def describe_error(self, detail) -> str:
        return wire.describe_detail(detail) + " (software NVMe controller)"

    def info(self):
        c = self.ctrl
        return {"backend": self.name,
                "transport": "NVMe READ/WRITE commands posted by GPU threads, served by the "
                             "software NVMe controller over files (copies: the dma entry)",
                "device": self.hardware(),
                "queues": c.nqueues, "queue_depth": c.depth, "queue_memory": c.queue_memory,
                "lba_size": c.lba_size, "cache": "cold (O_DIRECT)" if self.cold else "warm (page cache)",
                "engine_threads": c.engine.threads, "io_threads": c.engine.io_threads,
                "dma": "copy-kernel" if self.resident else "copy-engines"}

    def close(self):
        stuck, failed = False, None
        try:
            if self.resident is not None:
                try:
                    self.resident.stop()
                except Exception as e:  # the engine stops all the same, below
                    failed = e
            if self.ctrl is not None and self.ctrl.engine is not None:
                try:
                    self.ctrl.stop()
                except EngineStuckError:
                    stuck = True  # the controller and its queues stay (Runtime.close keeps this backend)
                    raise
                self.sync()  # served by engine.poll(): nothing else runs now
        finally:  # the files go even where the flush failed
            for slot in list(self._files):
                nsid, path, temp, _ = self._files.pop(slot)
                if not stuck and self.ctrl is not None and self.ctrl.engine is not None:
                    try:
                        self.ctrl.remove_namespace(nsid)
                    except RuntimeError as e:  # its fsync failed or did not end: the rest goes on
                        failed = failed or e
                if temp:
                    path.unlink(missing_ok=True)
            if self.ctrl is not None and not stuck:
                self.ctrl.close()
                self.ctrl = None
            if self._tmpdir is not None:
                self._tmpdir.cleanup()
                self._tmpdir = None
        if failed is not None:
            raise TransportError(f"closing the nvme backend: {failed}") from failed
