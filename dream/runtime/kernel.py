"""User kernels: compiled with the dream headers for the runtime's backend,
launched with dream arrays, CuPy arrays and scalars, and followed by a read
of the device error record, raised as a Python exception. Any launch shape
runs on any ring: no lane holds a pin while it waits (fault.cuh).

Any block size up to the GPU's: the fault path linked to a kernel has up to
128 registers a thread (compile.py), so the kernel's blocks hold at most 512
threads on a GPU of 64 K registers a block. A launch of larger blocks takes
a build of its own, made once per size, compiled whole with every thread's
registers capped to fit (--maxrregcount, as __launch_bounds__ would); its
fault path spills more, and `direct` copies with fewer loads in flight there
(direct.cuh, DREAM_COPY_UNROLL). A kernel that sets its own register budget is
compiled whole, with that budget (on `direct` a second time if its source
set it and it left fewer registers than the linked build's, so that the copy
is sized by them): a larger block is refused, naming it."""
from __future__ import annotations

import concurrent.futures

import numpy as np

from . import abi
from .array import DreamArray
from .compile import FAULT_REGISTERS, GENERAL, NO_EVICT, RESIDENT, link_kernel, own_budget, register_cap
from .cuda import func_registers, max_block_threads, max_blocks_per_sm, param_layout
from .errors import ConfigError, KernelArgumentError


def _dim3(v, what: str) -> tuple:
    t = tuple(v) if isinstance(v, (tuple, list)) else (v,)
    if not 1 <= len(t) <= 3 or any(isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < 1 for x in t):
        raise ConfigError(f"{what} must be a positive int or a tuple of up to 3, got {v!r}")
    return tuple(int(x) for x in t) + (1,) * (3 - len(t))


def _scalar_bytes(value, size: int, i: int, kname: str) -> bytes:
    """A Python or NumPy scalar as the `size` bytes of its parameter."""
    if isinstance(value, np.generic):
        b = value.tobytes()
        if len(b) != size:
            raise KernelArgumentError(
                f"kernel {kname}: argument {i} is {value.dtype} ({len(b)} bytes) but the "
                f"kernel's parameter {i} has {size} bytes")
        return b
    if isinstance(value, bool):
        if size != 1:
            raise KernelArgumentError(f"kernel {kname}: argument {i} is a bool but parameter "
                                      f"{i} has {size} bytes; pass a NumPy scalar")
        return bytes([value])
    if isinstance(value, int):
        if size not in (4, 8):
            raise KernelArgumentError(f"kernel {kname}: argument {i} is an int but parameter "
                                      f"{i} has {size} bytes; pass a NumPy scalar")
        lo, hi = -(1 << (8 * size - 1)), (1 << (8 * size)) - 1
        if not lo <= value <= hi:
            raise KernelArgumentError(f"kernel {kname}: argument {i} = {value} does not fit "
                                      f"its {size}-byte parameter")
        return value.to_bytes(size, "little", signed=value < 0)
    if isinstance(value, float):
        if size not in (4, 8):
            raise KernelArgumentError(f"kernel {kname}: argument {i} is a float but parameter "
                                      f"{i} has {size} bytes")
        return np.array(value, dtype=np.float32 if size == 4 else np.float64).tobytes()
    raise KernelArgumentError(
        f"kernel {kname}: argument {i} has type {type(value).__name__}; pass dream arrays, "
        "CuPy arrays or scalars")


# A kernel's no-evict and resident builds compile in threads of this pool
# while its general build compiles in the caller's (NVRTC releases the GIL); it waits
# only on compile.py's own pool, whose tasks wait on nothing
_BUILDS = concurrent.futures.ThreadPoolExecutor(thread_name_prefix="dream-build")


class Kernel:
    def __init__(self, rt, source: str, name: str, options=()):
        if not isinstance(source, str) or not isinstance(name, str) or not name:
            raise ConfigError("rt.kernel(source, name): source and name must be strings")
        self.rt = rt
        self.name = name
        self._source, self._options = source, tuple(options)
        self._records = {}   # a RESIDENT build's function -> the address of its dream_resident_failure
        self._builds = {None: self._build(None)}   # register cap (None: none) -> its builds
        self._block_most = {}                       # register cap -> _most
        self._params = param_layout(self._builds[None][GENERAL])
        self._per_sm = {}   # (threads per block, shared memory) -> blocks an SM holds

    def _build(self, cap) -> dict:
        """The three builds: GENERAL, NO_EVICT (launches that evict nothing,
        fault.cuh O6) and RESIDENT (launches whose dream arrays are all at
        home, O7: plain loads and stores), the last two compiled in threads
        while the first is. `cap`: registers a thread, for large blocks (module doc). On
        a backend whose copies are sized by the build's registers, a kernel
        whose source sets its budget (__launch_bounds__, __maxnreg__) and
        got fewer registers than the linked build's has its general build
        made again with that count told to the headers, as --maxrregcount
        tells it (compile.py, register_cap)."""
        options = self._options + ((f"--maxrregcount={cap}",) if cap else ())
        others = {b: _BUILDS.submit(self._link, options, b) for b in (NO_EVICT, RESIDENT)}
        general = self._load_build(self._link(options, GENERAL), GENERAL)
        if cap is None and self.rt._backend.sized_by_registers and own_budget(self._source, ()) \
                and not register_cap(options):
            regs = func_registers(general)
            if regs < FAULT_REGISTERS:
                self._options += (f"-DDREAM_REGISTER_CAP={regs}",)
                options = self._options
                general = self._load_build(self._link(options, GENERAL), GENERAL)
                others = {b: _BUILDS.submit(self._link, options, b) for b in (NO_EVICT, RESIDENT)}
        return {GENERAL: general, **{b: self._load_build(f.result(), b) for b, f in others.items()}}

    def _link(self, options, build: str) -> tuple:
        return link_kernel(self._source, (self.name,), self.rt.gpu.arch, (self.rt._backend.define,),
                           options, f"{self.name}.cu", build)

    def _load_build(self, linked: tuple, build: str):
        """Loads a build (in the caller's thread, where the runtime's context is current)."""
        image, lowered = linked
        module = self.rt._load(image)
        func = module.function(lowered[self.name])
        if build == RESIDENT:
            self._records[int(func)] = module.global_ptr(abi.RESIDENT_FAIL_SYMBOL)
        return func

    def _most(self, cap) -> int:
        """The most threads a block of build `cap` may have."""
        if cap not in self._block_most:
            self._block_most[cap] = min(max_block_threads(f) for f in self._builds[cap].values())
        return self._block_most[cap]

    def _funcs(self, threads: int) -> dict:
        """The builds that run blocks of `threads` (module doc)."""
        if threads <= self._most(None):
            return self._builds[None]
        if threads > self.rt.gpu.max_threads_per_block:
            raise ConfigError(f"kernel {self.name}: a block of {threads} threads, but this GPU's blocks hold "
                              f"at most {self.rt.gpu.max_threads_per_block}")
        own = own_budget(self._source, self._options)
        # registers go to whole warps, 8 a thread at a time
        cap = self.rt.gpu.registers_per_block // (-(-threads // 32) * 32) // 8 * 8
        if not own:
            if cap not in self._builds:
                self._builds[cap] = self._build(cap)
            if threads <= self._most(cap):
                return self._builds[cap]
        raise ConfigError(f"kernel {self.name}: a block of {threads} threads, but its build runs at most "
                          f"{self._most(None if own else cap)}"
                          + (" (its own register budget: launch bounds or --maxrregcount)" if own else ""))

    def __call__(self, grid, block, args=(), shared_mem: int = 0):
        self.rt._check_open()  # before _pack, which reads the GPU
        grid = _dim3(grid, f"kernel {self.name}: grid")
        block = _dim3(block, f"kernel {self.name}: block")
        args = tuple(args)
        if len(args) != len(self._params):
            raise KernelArgumentError(f"kernel {self.name} takes {len(self._params)} "
                                      f"argument(s), got {len(args)}")
        funcs = self._funcs(block[0] * block[1] * block[2])
        warps = -(-block[0] * block[1] * block[2] // 32) * self.resident_blocks(grid, block, shared_mem)
        packed, build = self._pack(args, warps)
        func = funcs[build]
        try:
            self.rt._launch(func, grid, block, packed,
                            [o for o, _ in self._params], shared_mem, f"kernel {self.name}",
                            transport=build != RESIDENT,  # the resident build makes no requests
                            record=self._records.get(int(func)))
        finally:
            if build != RESIDENT:   # its loads (and evictions) change which arrays are at home
                self.rt._forget_homes()

    def _pack(self, args, warps: int) -> tuple[bytes, str]:
        """The launch's parameters (`warps`: how many it holds at once), and
        the build it takes: RESIDENT where it evicts nothing and each of its
        dream arrays is at home (each array at home is accessed there in
        every build: abi.h DREAM_PTR_AT_HOME), else NO_EVICT where it evicts
        nothing, else GENERAL."""
        total = max((o + s for o, s in self._params), default=0)
        buf = bytearray(total)
        flags = self.rt._launch_flags(warps)
        home = self.rt._at_home() if flags & abi.PTR_NO_EVICT else set()
        slots = [a.slot for a in args if isinstance(a, DreamArray)]
        resident = bool(slots) and set(slots) <= home
        for i, (a, (off, size)) in enumerate(zip(args, self._params)):
            if isinstance(a, DreamArray):
                if a.rt is not self.rt:
                    raise KernelArgumentError(f"kernel {self.name}: argument {i} ({a.name!r}) "
                                              "belongs to another Runtime")
                b = a.kernel_arg(flags | (abi.PTR_AT_HOME if a.slot in home else 0))
            elif hasattr(a, "__cuda_array_interface__"):
                b = int(a.__cuda_array_interface__["data"][0]).to_bytes(8, "little")
            else:
                b = _scalar_bytes(a, size, i, self.name)
            if len(b) != size:
                raise KernelArgumentError(
                    f"kernel {self.name}: argument {i} packs to {len(b)} bytes but the "
                    f"kernel's parameter {i} has {size} (a dream array must be a "
                    "dream_ptr<T> parameter, a CuPy array a pointer)")
            buf[off:off + size] = b
        return bytes(buf), RESIDENT if resident else NO_EVICT if flags & abi.PTR_NO_EVICT else GENERAL

    def resident_blocks(self, grid, block, shared_mem=0) -> int:
        """Blocks of this launch that can be on the GPU at once (of the
        build with most: the builds may differ in registers). For a block larger
        than the default build allows, its own build is compiled here (module
        doc)."""
        tpb = block[0] * block[1] * block[2]
        key = (tpb, shared_mem)
        if key not in self._per_sm:
            self._per_sm[key] = max(max_blocks_per_sm(f, tpb, shared_mem) for f in self._funcs(tpb).values())
        return min(grid[0] * grid[1] * grid[2], self._per_sm[key] * self.rt.gpu.sms)

    def resident_threads(self, grid, block, shared_mem=0) -> int:
        """Threads of this launch that can be on the GPU at once."""
        return self.resident_blocks(grid, block, shared_mem) * block[0] * block[1] * block[2]
