"""Runtime: one frame ring on one GPU, the arrays paged into it, the backend
that moves the pages, and the kernels that use them."""
from __future__ import annotations

import numpy as np

from . import abi, engines
from .array import DreamArray, check_dtype, check_shape
from .backends import backend_class
from .compile import compile_source
from .cuda import Module, launch, require_gpu, wait_stream
from .errors import (BackendUnavailableError, ConfigError, DeviceError, DreamTimeoutError, EngineStuckError,
                     ElementTypeError, OutOfBoundsError, RuntimeClosedError, TransportError)
from .kernel import Kernel
from .sizes import format_size, parse_duration, parse_size
from .stats import Stats

_MAINTENANCE = '#include "dream/maintenance.cuh"\n'
_FLUSH_WRITE, _FLUSH_DROP = 1, 2  # maintenance.cuh
_MIN_PAGE, _MAX_PAGE = 4 << 10, 16 << 20
FRAME_ALIGN = 4 << 10   # the frame ring's start: an NVMe controller page


def _array_name(arrays: dict, slot: int) -> str:
    """How an error names the array of `slot`."""
    arr = arrays.get(slot)
    return f"array {arr.name!r} (shape {arr.shape}, {arr.dtype})" if arr else f"array slot {slot}"


class Runtime:
    """dream.Runtime(backend="direct", page_size="4KiB", gpu_memory="1GiB", device=0)

    gpu_memory is the frame ring: gpu_memory // page_size frames. timeout
    bounds every wait on the GPU (a fault that waits longer raises
    DreamTimeoutError); host_timeout bounds the host's wait for a kernel.
    Other keyword arguments go to the backend (e.g. queues=, queue_memory=)."""

    def __init__(self, backend: str = "direct", page_size="4KiB", gpu_memory="1GiB",
                 device: int = 0, timeout="10s", host_timeout="600s", **backend_options):
        self.backend_name = backend
        self.page_size = parse_size(page_size, "page_size")
        if self.page_size & (self.page_size - 1) or not _MIN_PAGE <= self.page_size <= _MAX_PAGE:
            raise ConfigError(f"page_size={page_size!r}: must be a power of two from "
                              f"{format_size(_MIN_PAGE)} to {format_size(_MAX_PAGE)}")
        self.page_shift = self.page_size.bit_length() - 1
        self.gpu_memory = parse_size(gpu_memory, "gpu_memory")
        self.nframes = self.gpu_memory // self.page_size
        if self.nframes < 1:
            raise ConfigError(f"gpu_memory={gpu_memory!r} is smaller than one page "
                              f"(page_size={format_size(self.page_size)})")
        if self.nframes > abi.MAX_FRAMES:
            raise ConfigError(f"gpu_memory={gpu_memory!r} gives {self.nframes:,} frames; "
                              f"at most {abi.MAX_FRAMES:,}: use larger pages")
        self.timeout_s = parse_duration(timeout, "timeout")
        self.host_timeout_s = parse_duration(host_timeout, "host_timeout")
        if not isinstance(device, int) or device < 0:
            raise ConfigError(f"device={device!r}: expected a GPU index")
        cls = backend_class(backend)
        self._closed = "the runtime is being set up"
        self._arrays: dict[int, DreamArray] = {}
        self._homes: dict[int, int] = {}   # slot -> first frame of the array's homes
        self._modules: list[Module] = []
        self._backend = None
        self.gpu = require_gpu(device)
        ok, why = cls.availability()
        if not ok:
            raise BackendUnavailableError(f"backend {backend!r} cannot run here: {why}")
        import cupy
        self.device = device
        cupy.cuda.Device(device).use()
        free, _ = cupy.cuda.runtime.memGetInfo()
        if self.gpu_memory > free:
            raise ConfigError(f"gpu_memory={format_size(self.gpu_memory)} exceeds the "
                              f"{format_size(free)} free on GPU {device} ({self.gpu.name})")
        # blocking: it orders after the CuPy fills and copies on the legacy stream
        self._stream = cupy.cuda.Stream()
        n = self.nframes
        # its own allocation, not a pool chunk: the rnic backend exports it
        # as a dma-buf, which needs the range to itself. Frames start on a
        # FRAME_ALIGN boundary: an NVMe PRP names a whole controller page
        # (a frame off it spills into PRP2), and cudaMalloc promises only 256
        # bytes (a small ring after a small allocation lands at 512-byte steps)
        self._frames_raw = cupy.cuda.runtime.malloc(n * self.page_size + FRAME_ALIGN)
        self.frames_ptr = -(-self._frames_raw // FRAME_ALIGN) * FRAME_ALIGN
        self._ref = cupy.zeros(n, dtype=np.int32)
        self._owner = cupy.full(n, abi.OWNER_NONE, dtype=np.uint64)
        self._dirty = cupy.zeros(n, dtype=np.uint32)
        self._loaded = cupy.zeros(n, dtype=np.uint32)
        self._counters = cupy.zeros(abi.COUNTER_SHARDS * abi.NCOUNTERS, dtype=np.uint64)
        self._error = cupy.zeros(abi.ERROR.itemsize, dtype=np.uint8)
        self._descs = cupy.zeros(64 * abi.ARRAY_DESC.itemsize, dtype=np.uint8)
        self._state = cupy.zeros(abi.RT_STATE.itemsize, dtype=np.uint8)
        self._state_ptr = self._state.data.ptr
        self._homes_now = None   # _at_home()'s last answer
        self._closed = None
        try:
            self._backend = cls(self, **backend_options)
            self._write_state()
            image, low = compile_source(_MAINTENANCE, ("dream_flush",), self.gpu.arch,
                                        (self._backend.define,), (), "maintenance.cu")
            self._flush_fn = self._load(image).function(low["dream_flush"])
        except BaseException:
            self.close()
            raise

    # -- state --------------------------------------------------------------

    def _write_state(self):
        s = np.zeros((), dtype=abi.RT_STATE)
        s["frames"] = self.frames_ptr
        s["ref"] = self._ref.data.ptr
        s["owner"] = self._owner.data.ptr
        s["dirty"] = self._dirty.data.ptr
        s["loaded"] = self._loaded.data.ptr
        s["arrays"] = self._descs.data.ptr
        s["counters"] = self._counters.data.ptr
        s["error"] = self._error.data.ptr
        s["transport"] = self._backend.transport_ptr
        s["nframes"] = self.nframes
        s["timeout_ns"] = int(self.timeout_s * 1e9)
        s["page_shift"] = self.page_shift
        s["n_slots"] = self._descs.size // abi.ARRAY_DESC.itemsize
        # head keeps its value across rewrites: the FIFO order of the ring
        s["head"] = self._state_word("head", np.uint64)
        self._state.set(np.frombuffer(s.tobytes(), dtype=np.uint8))

    def _state_word(self, name: str, dtype) -> int:
        """One field of the device's dream_rt_state, read back."""
        off = abi.RT_STATE.fields[name][1]
        return int(self._state[off:off + np.dtype(dtype).itemsize].view(dtype).get()[0])

    def _check_open(self):
        if self._closed:
            raise RuntimeClosedError(f"runtime unusable: {self._closed}")

    def _load(self, image: bytes) -> Module:
        m = Module(image)
        self._modules.append(m)
        return m

    # -- arrays -------------------------------------------------------------

    def _new_slot(self) -> int:
        slots = self._descs.size // abi.ARRAY_DESC.itemsize
        for s in range(slots):
            if s not in self._arrays:
                return s
        if slots * 2 > abi.MAX_SLOTS:
            raise ConfigError(f"too many live arrays (at most {abi.MAX_SLOTS:,})")
        import cupy
        grown = cupy.zeros(self._descs.size * 2, dtype=np.uint8)
        grown[: self._descs.size] = self._descs
        self._descs = grown
        self._write_state()
        return slots

    def _new_array(self, shape, dtype, name, attach) -> DreamArray:
        self._check_open()
        slot = self._new_slot()
        arr = DreamArray(self, slot, shape, dtype, name or f"array{slot}")
        backing, key = attach(arr)
        self._arrays[slot] = arr
        self._place_home(arr)
        self._forget_homes()
        off = slot * abi.ARRAY_DESC.itemsize
        self._descs[off: off + abi.ARRAY_DESC.itemsize].set(
            np.frombuffer(arr.descriptor(backing, key).tobytes(), dtype=np.uint8))
        return arr

    def _place_home(self, arr: DreamArray):
        """Gives `arr` homes (abi.h DREAM_ARRAY_HOME, fault.cuh O7): the
        first run of free frames long enough for its pages, none if there is
        no such run. Homes never move while their array lives."""
        start = 0
        for first, n in sorted((f, self._arrays[s].n_pages) for s, f in self._homes.items()):
            if first - start >= arr.n_pages:
                break
            start = max(start, first + n)
        if start + arr.n_pages <= self.nframes:
            self._homes[arr.slot] = start

    def _home(self, slot: int) -> int | None:
        """The first frame of the array's homes, or None."""
        return self._homes.get(slot)

    def _at_home(self) -> set:
        """The slots of the arrays whose every page is VALID in its home
        (the device counts them; read between kernels, and kept until a
        kernel or flush that may change them, or a new or freed array)."""
        if self._homes_now is None:
            d = np.frombuffer(self._descs.get().tobytes(), dtype=abi.ARRAY_DESC)
            self._homes_now = frozenset(s for s in self._homes
                                        if int(d[s]["at_home"]) == self._arrays[s].n_pages)
        return self._homes_now

    def _forget_homes(self):
        self._homes_now = None

    def _launch_flags(self, warps: int) -> int:
        """The dream_ptr flags of one launch (abi.h), the same for all its
        arrays: DREAM_PTR_NO_EVICT while the ring has a frame for every page
        of every array (faults then take only free frames, and no frame is
        reused while the kernel runs); the read-ahead depth (pages a fault
        loads besides its own, read ahead or gathered: abi.h), AHEAD_MAX
        then, else the largest d <= AHEAD_MAX whose 2 * (d + 1) frames for
        each of the `warps` the launch can hold at once the ring has (those
        pages then take about half of it)."""
        fits = sum(a.n_pages for a in self._arrays.values()) <= self.nframes
        depth = abi.AHEAD_MAX if fits else max(0, min(abi.AHEAD_MAX, self.nframes // (2 * warps) - 1))
        return (abi.PTR_NO_EVICT if fits else 0) | depth << abi.PTR_AHEAD_SHIFT

    def array(self, data, name: str | None = None, **backing_options) -> DreamArray:
        """A dream array holding a copy of `data` (any numeric ndarray)."""
        data = np.asarray(data)
        dt = check_dtype(data.dtype, "rt.array")
        shape = check_shape(data.shape, "rt.array")
        data = np.ascontiguousarray(data)
        return self._new_array(shape, dt, name,
                               lambda a: self._backend.attach(a, data, **backing_options))

    def empty(self, shape, dtype=np.float32, name: str | None = None, **backing_options):
        """A new array (zero-filled: backing stores are never left undefined)."""
        return self.zeros(shape, dtype, name, **backing_options)

    def zeros(self, shape, dtype=np.float32, name: str | None = None, **backing_options):
        dt = check_dtype(dtype, "rt.zeros")
        shape = check_shape(shape, "rt.zeros")
        return self._new_array(shape, dt, name,
                               lambda a: self._backend.attach(a, None, **backing_options))

    def open(self, path, dtype, shape, mode: str = "r", name: str | None = None):
        """Maps a file as a dream array (backends with files: nvme)."""
        if not hasattr(self._backend, "open_file"):
            raise ConfigError(f"rt.open({str(path)!r}) needs a file-backed backend "
                              f"(backend='nvme'); this runtime uses {self.backend_name!r}")
        if mode not in ("r", "r+", "w+"):
            raise ConfigError(f"rt.open: mode must be 'r', 'r+' or 'w+', got {mode!r}")
        dt = check_dtype(dtype, "rt.open")
        shape = check_shape(shape, "rt.open")
        return self._new_array(shape, dt, name or str(path),
                               lambda a: self._backend.open_file(a, path, mode))

    def _free_array(self, arr: DreamArray):
        self._check_open()
        self._flush(arr.slot, write=False, drop=True)
        self._backend.detach(arr)
        del self._arrays[arr.slot]
        self._homes.pop(arr.slot, None)
        self._forget_homes()
        off = arr.slot * abi.ARRAY_DESC.itemsize
        self._descs[off: off + abi.ARRAY_DESC.itemsize] = 0

    def _flush(self, slot: int, write: bool, drop: bool):
        self._check_open()
        how = (_FLUSH_WRITE if write else 0) | (_FLUSH_DROP if drop else 0)
        blocks = max(1, min(1024, -(-self.nframes // 256)))
        self._forget_homes()
        self._launch(self._flush_fn, (blocks, 1, 1), (256, 1, 1),
                     self._state_ptr.to_bytes(8, "little") + slot.to_bytes(4, "little")
                     + how.to_bytes(4, "little"), [0, 8, 12], 0, "flush")
        if write:
            self._backend.sync()

    def flush(self):
        """Writes every dirty frame back."""
        self._flush(abi.ALL_SLOTS, write=True, drop=False)

    def evict(self):
        """Writes dirty pages back and empties the frame ring, so the next
        access to any page faults (cold-start experiments)."""
        self._flush(abi.ALL_SLOTS, write=True, drop=True)

    # -- kernels ------------------------------------------------------------

    def kernel(self, source: str, name: str, options=()) -> Kernel:
        """Compiles CUDA C++ `source` (dream headers included) and returns the
        kernel `name`, callable as k(grid, block, args)."""
        self._check_open()
        return Kernel(self, source, name, options)

    def _launch(self, func, grid, block, params, offsets, shared, what, transport=True, record=None):
        """`record`: the address of a resident build's dream_resident_failure
        (kernel.py), read after the launch."""
        self._check_open()
        self._backend.before_launch()
        resident = self._backend.resident if transport else None
        if resident is not None:  # running before the kernel can fill the GPU
            resident.start()
        if record is not None:  # a record left by a launch whose _finish raised
            import cupy
            cupy.cuda.runtime.memsetAsync(record, 0, abi.RESIDENT_FAIL.itemsize, self._stream.ptr)
        try:
            launch(func, grid, block, params, offsets, self._stream.ptr, shared)
        except BaseException:
            if resident is not None:
                resident.stop()
            raise
        self._finish(what)
        if record is not None:
            f = self._resident_failure(record, grid, block)
            if f is not None:
                raise self._resident_error(f, what)

    @staticmethod
    def _resident_failure(record: int, grid, block):
        """The failed access a resident build recorded (abi.h
        dream_resident_fail) in a launch of grid x block, decoded by
        abi.resident_failure; the record is cleared before each resident launch."""
        import cupy
        rt = cupy.cuda.runtime
        raw = np.zeros(abi.RESIDENT_FAIL.itemsize, dtype=np.uint8)
        rt.memcpy(raw.ctypes.data, record, raw.size, rt.memcpyDeviceToHost)
        return abi.resident_failure(raw.tobytes(), grid, block)

    def _resident_error(self, f, what: str) -> DeviceError:
        """The exception for resident failure `f` (abi.resident_failure),
        through the general build's error record and its messages."""
        e = np.zeros((), dtype=abi.ERROR)
        e["code"], e["count"], e["slot"] = f[0], 1, f[1]
        if f[0] == abi.ERR_TYPE:
            arr = self._arrays.get(f[1])
            e["detail"][0], e["detail"][1] = f[2], arr.dtype.itemsize if arr else 0
            return self._device_error(e, what, "every access through it (its thread is not recorded)")
        _, _, e["index"], blk, e["thread"] = f
        if blk is None:
            return self._device_error(e, what, f"a block at or past linear block {abi.RFAIL_BLOCK_MAX:,}, "
                                               f"thread {tuple(int(x) for x in e['thread'])}")
        e["block"] = blk
        return self._device_error(e, what)

    def _finish(self, what: str):
        try:
            wait_stream(self._stream, self.host_timeout_s, what)
        except DeviceError as e:  # timed out, or the kernel crashed
            self._closed = str(e)
            raise
        if self._backend.resident is not None:
            try:
                self._backend.resident.stop()  # nothing, unless this launch started it
            except DeviceError as e:  # its engine threads may still hold copies for it
                self._closed = f"the backend's resident kernel did not stop after {what}: {e}"
                raise
        self._backend.after_launch()
        raw = self._error.get()
        err = np.frombuffer(raw.tobytes(), dtype=abi.ERROR)[0]
        if err["code"] != abi.ERR_NONE:
            self._error.fill(0)
            exc = self._device_error(err, what)
            # the device aborts on a timeout or an inconsistency even when an
            # earlier error of the launch is the one recorded: every later
            # wait would give up at once, silently, so the runtime closes
            aborted = self._state_word("abort", np.uint32) != 0
            if int(err["code"]) == abi.ERR_PROTOCOL:
                self._closed = f"the page table was found inconsistent in {what}"
            elif aborted or isinstance(exc, DreamTimeoutError):
                # frames may be locked under requests still in flight
                self._closed = f"a wait timed out in {what}; close it and start a new Runtime"
            raise exc

    def _device_error(self, e, what: str, at: str | None = None) -> DeviceError:
        """The exception for device error record `e` (abi.ERROR); `at`: where,
        if not its block and thread."""
        arr = self._arrays.get(int(e["slot"]))
        aname = _array_name(self._arrays, int(e["slot"]))
        at = at or f"block {tuple(int(x) for x in e['block'])} thread {tuple(int(x) for x in e['thread'])}"
        more = int(e["count"]) - 1
        tail = f"; {more} more error(s) in this launch" if more > 0 else ""
        code = int(e["code"])
        if code == abi.ERR_BOUNDS:
            idx = int(e["index"])
            idx = idx - (1 << 64) if idx >= 1 << 63 else idx
            return OutOfBoundsError(f"{what}: index {idx} is out of bounds for {aname} of "
                                    f"{arr.size if arr else '?'} elements, at {at}{tail}")
        if code == abi.ERR_TYPE:
            return ElementTypeError(
                f"{what}: dream_ptr<T> with sizeof(T) = {int(e['detail'][0])} used for {aname} "
                f"whose elements are {int(e['detail'][1])} bytes, at {at}{tail}")
        if code == abi.ERR_TIMEOUT:
            where = int(e["where"])
            d = [int(x) for x in e["detail"]]
            request = (f", queue {d[0]}, entry index {d[1]}, opcode {d[2]:#x}"  # queue.cuh
                       if where in (abi.WAIT_QUEUE, abi.WAIT_COMPLETION) else "")
            return DreamTimeoutError(
                f"{what}: waiting for {abi.WAIT_NAMES.get(where, '?')} took longer than "
                f"timeout={self.timeout_s:g}s (page {int(e['page'])} of {aname}{request}, at {at}, "
                f"backend {self.backend_name!r}){tail}")
        if code == abi.ERR_TRANSPORT:
            return TransportError(
                f"{what}: backend {self.backend_name!r} failed a request for page "
                f"{int(e['page'])} of {aname}: {self._backend.describe_error(e['detail'])}, "
                f"at {at}; the page stays absent and no other page was touched{tail}")
        if code == abi.ERR_PROTOCOL:
            return DeviceError(
                f"{what}: internal error: frame {int(e['detail'][1])} belongs to page "
                f"{int(e['page'])} of {aname} but that page's entry reads "
                f"{int(e['detail'][0]):#x}; the kernel was stopped before any data moved "
                f"(a bug in dream: please report it with backend {self.backend_name!r}){tail}")
        return DeviceError(f"{what}: device error code {code} at {at}{tail}")

    # -- statistics, life cycle ---------------------------------------------

    def stats(self) -> Stats:
        self._check_open()
        return Stats.from_counters(self._counters.get(), self._backend.counters())

    def reset_stats(self):
        self._check_open()
        self._counters.fill(0)

    def describe(self) -> dict:
        return {"gpu": self.gpu.name, "device": self.device,
                "page_size": self.page_size, "gpu_memory": self.gpu_memory,
                "frames": self.nframes, "arrays": len(self._arrays),
                **self._backend.info()}

    def close(self):
        """Frees the frame ring, the arrays' backing stores and the backend."""
        if self._closed == "closed":
            return
        try:
            if self._backend is not None:
                for arr in list(self._arrays.values()):
                    arr._freed = True
                self._backend.close()
        except EngineStuckError:
            # its thread may still write the backing stores and the frames
            engines.keep(self._backend)
            self._frames_raw = self.frames_ptr = 0  # not freed below
            raise
        finally:
            for m in self._modules:
                m.unload()
            self._modules.clear()
            self._arrays.clear()
            if getattr(self, "_frames_raw", 0):
                import cupy
                cupy.cuda.runtime.free(self._frames_raw)
                self._frames_raw = self.frames_ptr = 0
            self._closed = "closed"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return (f"Runtime(backend={self.backend_name!r}, page_size={format_size(self.page_size)}, "
                f"gpu_memory={format_size(self.gpu_memory)}, frames={self.nframes:,})")
