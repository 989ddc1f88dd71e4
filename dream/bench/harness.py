"""What every experiment of `dream bench` shares: the memory systems a
workload runs on, the sweep over backends and oversubscription, and the
results (JSON, CSV, PNG), every figure a ratio to baselines of the same run.

A workload is one kernel source written with `ARR(T)` for its big arrays:
the dream build defines it as `dream_ptr<T>`, the baselines as `T *`, so a
comparison is of memory systems, not of code (`READ_SPAN(T) s(a)`: a
`dream_span<const T>` over a, a `const T *` in the baselines). Its big arrays live in the
memory system under test; small ones (vectors of a few KiB, flags,
accumulators) in plain device memory for every system.

Memory systems:

  dream      the big arrays are dream arrays; frame ring = data / (1 + x)
             (x = 0: the ring holds all the data); every run starts cold
             (rt.evict()), so a run pays for every page it loads; at x = 0
             the runs are then repeated with every page left resident
             (arrays a run rewrites are reset through the ring;
             warm_seconds, warm_vs_in_memory: the access path's own cost)
  in_memory  plain device arrays (CuPy), data already on the GPU
  uvm        managed memory filled by the CPU, each run after the CPU wrote
             every page again (UVM first touch, the paper's "U nm")
  uvm_rm     the same with cudaMemAdviseSetReadMostly on the read-only big
             arrays ("U wm"; the advice's time is reported, not counted)
  chunked    the workload's own manual partitioning: chunks of the ring's
             size copied to device memory in turn, then computed on (x = 0:
             one chunk, copy everything then compute), where it has one

UVM runs only at sizes well inside free GPU memory: oversubscribing managed
memory can hang a shared GPU, so UVM is never measured beyond x = 0.
Baselines compile and launch through a dream Runtime holding one frame, so
that launch and wait costs are the same as the dream runs'.
"""
from __future__ import annotations

import csv
import ctypes
import json
import platform
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

DREAM_BUILD = ("#define ARR(T) dream_ptr<T>\n"
               "#define READ_SPAN(T) dream_span<const T>\n"
               "#define ATOMIC_MIN(a, i, v) (a).atomic_min(i, v)\n"
               "#define ATOMIC_ADD(a, i, v) (a).atomic_add(i, v)\n")
RAW_BUILD = ("#define ARR(T) T *__restrict__\n"
             "#define READ_SPAN(T) const T *__restrict__\n"
             "#define ATOMIC_MIN(a, i, v) atomicMin(&(a)[i], v)\n"
             "#define ATOMIC_ADD(a, i, v) atomicAdd(&(a)[i], v)\n")

# put<size>: copies n words of one size into a dream array through the ring
PUT_SOURCE = "".join(
    f'extern "C" __global__ void put{n}(dream_ptr<{t}> dst, const {t} *src, unsigned long long m) {{\n'
    "    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < m;\n"
    "         i += (unsigned long long)gridDim.x * blockDim.x)\n"
    "        dst[i] = src[i];\n}\n"
    for n, t in ((1, "unsigned char"), (2, "unsigned short"), (4, "unsigned int"), (8, "unsigned long long")))

SYSTEMS = ("dream", "in_memory", "uvm", "uvm_rm", "chunked")
UVM_FREE_FRACTION = 0.5   # UVM only for data below half of the free GPU memory


# -- workloads ------------------------------------------------------------------

@dataclass
class Array:
    """One array of a workload: `data` (host contents) or `init` (the
    value every run starts from); `big` arrays live in the memory system
    under test, the rest in device memory; `read_only` ones get UVM's
    read-mostly advice."""
    data: np.ndarray
    big: bool = True
    read_only: bool = True


class Workload:
    """A kernel source and its arrays; subclasses set `name`, `source`,
    `kernels`, and define arrays(), reset(), launch() and errors()."""
    name = ""
    family = ""
    source = ""
    kernels: tuple = ()

    def arrays(self) -> dict[str, Array]:
        raise NotImplementedError

    def reset(self, run: "Placed", i: int):
        """Sets the writable arrays to their start values for run i."""

    def launch(self, run: "Placed", i: int) -> dict:
        """Runs the workload (kernel launches that wait); returns extra
        figures (iterations, ...)."""
        raise NotImplementedError

    def errors(self, run: "Placed", i: int) -> dict:
        """Counts of wrong results of run i, all zero when exact."""
        raise NotImplementedError

    def chunked(self, gpu_bytes: int, i: int, rt_raw) -> tuple[float, dict, dict] | str | None:
        """Manual partitioning in `gpu_bytes` of device memory: (seconds,
        extra, errors); a str saying why it cannot run in that budget; None
        where the workload has none."""
        return None

    def derive(self, row: dict) -> dict:
        """Figures computed from a run's row (e.g. I/O amplification)."""
        return {}

    chunked_label = "chunked copy"

    def data_bytes(self) -> int:
        return sum(a.data.nbytes for a in self.arrays().values() if a.big)

    def describe(self) -> dict:
        return {}


class Placed:
    """A workload's arrays in one memory system, with its kernels built."""

    def __init__(self, system: "System", w: Workload):
        self.system, self.w = system, w
        self.resident = False   # set() writes dream arrays through the ring (resident runs)
        self.arrays = {}
        for name, spec in w.arrays().items():
            self.arrays[name] = system.place(name, spec) if spec.big else _device(spec.data)
        self.k = {name: system.kernel(w.source, name) for name in w.kernels}

    def __getitem__(self, name):
        return self.arrays[name]

    def set(self, name: str, data: np.ndarray):
        a = self.arrays[name]
        if self.resident and hasattr(a, "kernel_arg"):   # a dream array
            self.system.put(a, data)
        elif hasattr(a, "copy_from"):   # a dream array or Managed
            a.copy_from(data)
        else:                         # a CuPy array
            a.set(np.ascontiguousarray(data, dtype=a.dtype))

    def get(self, name: str) -> np.ndarray:
        a = self.arrays[name]
        return a.to_numpy() if hasattr(a, "to_numpy") else a.get()

    def args(self, *names):
        return tuple(self.arrays[n] for n in names)


def _device(data: np.ndarray):
    import cupy
    return cupy.asarray(data)


def pinned_copy(*arrays: np.ndarray):
    """The arrays one after another in pinned host memory (the source of a
    chunked baseline's copies, at full PCIe speed)."""
    from ..runtime.pinned import PinnedBuffer
    buf = PinnedBuffer(max(1, sum(a.nbytes for a in arrays)))
    at = 0
    for a in arrays:
        buf.bytes[at: at + a.nbytes] = np.ascontiguousarray(a).reshape(-1).view(np.uint8)
        at += a.nbytes
    return buf


# -- memory systems -------------------------------------------------------------

class Managed:
    """cudaMallocManaged memory written by the CPU (first touch on the host)."""

    def __init__(self, data: np.ndarray):
        import cupy
        self.dtype, self.shape = data.dtype, data.shape
        self.mem = cupy.cuda.malloc_managed(max(1, data.nbytes))
        self.ptr = self.mem.ptr
        self.nbytes = data.nbytes
        self.host = np.ctypeslib.as_array((ctypes.c_uint8 * max(1, data.nbytes)).from_address(
            self.ptr))[: data.nbytes].view(data.dtype).reshape(data.shape)
        self.host[...] = data

    def copy_from(self, data):
        import cupy
        cupy.cuda.Device().synchronize()
        self.host[...] = data

    def to_numpy(self) -> np.ndarray:
        import cupy
        cupy.cuda.Device().synchronize()
        return self.host.copy()

    def touch_on_host(self):
        """One CPU write per 4 KiB (the value kept): every page back on the
        host, GPU copies invalidated."""
        b = self.host.reshape(-1).view(np.uint8)
        b[::4096] |= 0

    def advise_read_mostly(self, device: int) -> float:
        from cuda.bindings import runtime as crt
        loc = crt.cudaMemLocation()
        loc.type = crt.cudaMemLocationType.cudaMemLocationTypeDevice
        loc.id = device
        t = time.perf_counter()
        err, = crt.cudaMemAdvise(self.ptr, self.nbytes,
                                 crt.cudaMemoryAdvise.cudaMemAdviseSetReadMostly, loc)
        if err != crt.cudaError_t.cudaSuccess:
            raise RuntimeError(f"cudaMemAdvise(SetReadMostly): {err}")
        return time.perf_counter() - t

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (self.ptr, False),
                "version": 3}


class System:
    """Where a workload's big arrays live; `kind` is one of SYSTEMS."""
    kind = ""

    def place(self, name: str, spec: Array):
        raise NotImplementedError

    def kernel(self, source: str, name: str):
        raise NotImplementedError

    def cold(self, placed: Placed):
        """Before a timed run: no page of the big arrays on the GPU."""

    def reset_counters(self):
        """Before a timed run: counters() from zero."""

    def counters(self) -> dict:
        return {}

    def close(self):
        pass


class DreamSystem(System):
    kind = "dream"

    def __init__(self, backend: str, options: dict, page: int, ring: int, device: int = 0):
        import dream
        self.rt = dream.Runtime(backend=backend, page_size=page, gpu_memory=ring, device=device,
                                **options)
        self._put = {}

    def put(self, a, data):
        """Writes data into dream array a with a copy kernel, so that its
        pages stay resident (copy_from drops them: they would load again)."""
        import cupy
        words = np.ascontiguousarray(data, dtype=a.dtype).reshape(-1).view(f"u{a.dtype.itemsize}")
        n = a.dtype.itemsize
        if n not in self._put:
            self._put[n] = self.rt.kernel(PUT_SOURCE, f"put{n}")
        # the runtime's stream is a blocking one: the upload comes first, and the launch waits
        self._put[n](min(-(-words.size // 256), 4096), 256, (a, cupy.asarray(words), np.uint64(words.size)))

    def place(self, name, spec):
        return self.rt.array(spec.data, name=name)

    def kernel(self, source, name):
        return self.rt.kernel(DREAM_BUILD + source, name)

    def cold(self, placed):
        self.rt.evict()

    def reset_counters(self):
        self.rt.reset_stats()

    def counters(self):
        s = self.rt.stats()
        return {"pages_in": s.pages_in, "evictions": s.evictions, "writebacks": s.writebacks,
                "bytes_in": s.bytes_in, "bytes_out": s.bytes_out, "faults": s.faults,
                "ahead": s.ahead, "gathered": s.gathered, "whole": s.whole}

    def close(self):
        self.rt.close()


class RawSystem(System):
    """Baselines: `T *` builds, launched through a one-frame dream Runtime."""

    def __init__(self, kind: str, device: int = 0):
        self.kind = kind
        self.device = device
        self.rt = raw_runtime(device)
        self.advise_seconds = 0.0

    def place(self, name, spec):
        if self.kind == "in_memory":
            return _device(spec.data)
        m = Managed(spec.data)
        if self.kind == "uvm_rm" and spec.read_only:
            self.advise_seconds += m.advise_read_mostly(self.device)
        return m

    def kernel(self, source, name):
        return self.rt.kernel(RAW_BUILD + source, name)

    def cold(self, placed):
        for a in placed.arrays.values():
            if isinstance(a, Managed):
                a.touch_on_host()

    def counters(self):
        return {"advise_seconds": round(self.advise_seconds, 4)} if self.kind == "uvm_rm" else {}

    def close(self):
        self.rt.close()


def raw_runtime(device: int = 0):
    """A dream Runtime of one frame: compiles and launches `T *` kernels."""
    import dream
    return dream.Runtime(backend="direct", page_size="4KiB", gpu_memory="4KiB", device=device)


# -- sweeps ---------------------------------------------------------------------

def ring_bytes(data: int, x: int, page: int) -> int:
    """Frame ring for oversubscription x: data / (1 + x) in whole pages; x = 0
    holds all the data (each array's last page may be partial)."""
    if x == 0:
        return -(-data // page) * page + 64 * page
    return max(page, data // (1 + x) // page * page)


@dataclass
class Plan:
    """What a sweep runs: parsed from the common command line."""
    backends: list            # [(name, options)]
    xs: list
    pages: list
    runs: int
    systems: tuple
    out: Path
    quick: bool = False
    device: int = 0


def parse_backends(text: str, nvme_dir: str | None = None) -> list:
    """"direct,softrnic:queue_memory=host;engine_threads=4,nvme" -> [(name,
    {options})]; whole-number values become ints (the backends' counts).
    A name no backend has, or an option without "=", is a ConfigError naming
    it (a misspelt item was skipped as "not built" before)."""
    from ..runtime.backends import all_backends
    from ..runtime.errors import ConfigError
    known = all_backends()
    out = []
    for item in text.split(","):
        name, _, rest = item.strip().partition(":")
        if name not in known:
            raise ConfigError(f"--backend {item.strip()!r}: no backend {name!r}; there are "
                              f"{', '.join(sorted(known))} (options after a colon: "
                              f"name:key=value;key=value)")
        pairs = [kv for kv in rest.split(";") if kv]
        for kv in pairs:
            if "=" not in kv:
                raise ConfigError(f"--backend {item.strip()!r}: option {kv!r} is not key=value")
        opts = {k: int(v) if v.isdigit() else v for k, v in (kv.split("=", 1) for kv in pairs)}
        if name == "nvme" and "directory" not in opts:
            opts["directory"] = nvme_dir or tempfile.gettempdir()
        out.append((name, opts))
    return out


def label(backend: str, options: dict) -> str:
    shown = {k: v for k, v in options.items() if k != "directory"}
    return backend + "".join(f":{k}={v}" for k, v in shown.items())


def uvm_fits(data: int) -> tuple[bool, str]:
    import cupy
    free, _ = cupy.cuda.runtime.memGetInfo()
    if data <= free * UVM_FREE_FRACTION:
        return True, ""
    return False, (f"skipped: {data:,} bytes of managed memory would not fit in half of the "
                   f"{free:,} bytes free (never oversubscribe managed memory)")


def _timed_runs(w: Workload, placed: Placed, system: System, runs: int, cold=True) -> list[dict]:
    import cupy
    out = []
    placed.resident = not cold
    for i in range(runs):
        w.reset(placed, i)
        if cold:
            system.cold(placed)
        system.reset_counters()
        cupy.cuda.Device().synchronize()  # nothing of the reset inside the timed run
        t = time.perf_counter()
        extra = w.launch(placed, i)
        seconds = time.perf_counter() - t
        row = {"seconds": seconds, **(extra or {}), **system.counters(), **w.errors(placed, i)}
        out.append({**row, **w.derive(row)})
    return out


def _summary(rows: list[dict]) -> dict:
    """Median seconds over runs, the counters of the median run, errors summed."""
    secs = [r["seconds"] for r in rows]
    mid = rows[int(np.argsort(secs)[len(secs) // 2])]
    out = {k: v for k, v in mid.items() if not k.startswith("wrong_")}
    out["seconds"] = float(np.median(secs))
    out["all_seconds"] = [round(s, 6) for s in secs]
    if "iterations" in mid:   # rounds of a workload that runs until nothing changes (CC's vary)
        out["all_iterations"] = [r["iterations"] for r in rows]
    wrong = {k: int(sum(r.get(k, 0) for r in rows)) for k in rows[0] if k.startswith("wrong_")}
    out.update(wrong)
    out["exact"] = not any(wrong.values())
    return out


def _warm(rows: list[dict]) -> dict:
    """A dream x = 0 point run again without emptying the ring: every page
    stays resident (reset() writes the arrays it rewrites through the ring,
    untimed; warm_pages_in counts any page that still had to load)."""
    got = _summary(rows)
    out = {"warm_seconds": got["seconds"], "warm_pages_in": got.get("pages_in"),
           "warm_exact": got["exact"]}
    if "iterations" in got:
        out.update(warm_iterations=got["iterations"], warm_all_iterations=got["all_iterations"])
    return out


def run_workload(w: Workload, plan: Plan, log=print, progress=None) -> list[dict]:
    """Every system of `plan` on workload `w`: baselines once, dream on
    every backend at every x and page size, chunked at every x."""
    from ..runtime.cuda import require_gpu
    gpu = require_gpu(plan.device)
    data = w.data_bytes()
    base = {"workload": w.name, "family": w.family, "data_bytes": data, "gpu": gpu.name,
            "driver": nvidia_driver(), **w.describe()}
    rows = []

    def emit(row):
        row = {**base, **row}
        rows.append(row)
        log(json.dumps(row, default=str))
        if progress is not None:
            progress.update(1)

    for kind in ("in_memory", "uvm", "uvm_rm"):
        if kind not in plan.systems:
            continue
        if kind != "in_memory":
            ok, why = uvm_fits(data)
            if not ok:
                emit({"system": kind, "x": 0, "skipped": why})
                continue
        system = RawSystem(kind, plan.device)
        try:
            placed = Placed(system, w)
            emit({"system": kind, "x": 0, **_summary(_timed_runs(w, placed, system, plan.runs))})
        except Exception as e:
            emit({"system": kind, "x": 0, "error": f"{type(e).__name__}: {e}"})
        finally:
            placed = None
            system.close()
    for backend, options in plan.backends:
        if "dream" not in plan.systems:
            break
        for page in plan.pages:
            for x in plan.xs:
                ring = ring_bytes(data, x, page)
                head = {"system": "dream", "backend": label(backend, options), "page": page,
                        "x": x, "ring_bytes": ring}
                try:
                    system = DreamSystem(backend, options, page, ring, plan.device)
                except Exception as e:  # a backend that cannot run here is a result too
                    emit({**head, "skipped": f"{type(e).__name__}: {e}"})
                    continue
                try:
                    placed = Placed(system, w)
                    row = _summary(_timed_runs(w, placed, system, plan.runs))
                    if x == 0:   # then again with the pages the cold runs left resident
                        row.update(_warm(_timed_runs(w, placed, system, plan.runs, cold=False)))
                    emit({**head, **row})
                except Exception as e:
                    emit({**head, "error": f"{type(e).__name__}: {e}"})
                finally:
                    placed = None
                    system.close()
    if "chunked" in plan.systems:
        rt_raw = raw_runtime(plan.device)
        try:
            for x in plan.xs:
                budget = ring_bytes(data, x, 4096)
                got = [w.chunked(budget, i, rt_raw) for i in range(plan.runs)]
                if got[0] is None or isinstance(got[0], str):
                    emit({"system": "chunked", "x": x, "skipped": got[0] or "no manual "
                          "partitioning for this workload"})
                    continue
                runs = [{"seconds": s, **extra, **err} for s, extra, err in got]
                emit({"system": "chunked", "label": w.chunked_label, "x": x, "ring_bytes": budget,
                      **_summary([{**r, **w.derive(r)} for r in runs])})
        finally:
            rt_raw.close()
    return add_ratios(rows)


def add_ratios(rows: list[dict]) -> list[dict]:
    """vs_in_memory, vs_uvm (time / that baseline's time, > 1 is slower) and
    vs_x0 (time / the same backend's x = 0) for every timed row."""
    by = {}
    for r in rows:
        if "seconds" in r:
            by[(r["workload"], r["system"], r.get("backend"), r.get("page"), r["x"])] = r["seconds"]
    for r in rows:
        if "seconds" not in r:
            continue
        for name, system in (("vs_in_memory", "in_memory"), ("vs_uvm", "uvm"), ("vs_uvm_rm", "uvm_rm")):
            b = by.get((r["workload"], system, None, None, 0))
            if b:
                r[name] = r["seconds"] / b
        b = by.get((r["workload"], "in_memory", None, None, 0))
        if b and "warm_seconds" in r:
            r["warm_vs_in_memory"] = r["warm_seconds"] / b
        x0 = by.get((r["workload"], r["system"], r.get("backend"), r.get("page"), 0))
        if x0 and r["system"] in ("dream", "chunked"):
            r["vs_x0"] = r["seconds"] / x0
    return rows


# -- results --------------------------------------------------------------------

CSV_FIELDS = ("gpu", "driver", "family", "workload", "system", "backend", "page", "x", "data_bytes",
              "ring_bytes", "seconds", "vs_in_memory", "vs_uvm", "vs_uvm_rm", "vs_x0", "pages_in",
              "bytes_in", "evictions", "io_amplification", "exact", "iterations", "warm_seconds",
              "warm_vs_in_memory", "warm_pages_in", "warm_exact", "warm_iterations", "skipped", "error")


def write_results(rows: list[dict], out: Path, name: str, meta: dict) -> list[Path]:
    """<name>.json (every row, with the machine), <name>.csv, <name>.png, and
    <name>.md (the table)."""
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / f"{name}.json", out / f"{name}.csv", out / f"{name}.png"]
    paths[0].write_text(json.dumps({"experiment": name, **meta, "rows": rows}, indent=1,
                                   default=str))
    with open(paths[1], "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=CSV_FIELDS, extrasaction="ignore")
        wr.writeheader()
        for r in rows:
            wr.writerow({k: (round(v, 6) if isinstance(v, float) else v) for k, v in r.items()})
    plot_slowdowns(rows, paths[2], f"{name} on {meta.get('gpu', '?')}")
    (out / f"{name}.md").write_text(f"{name} on {meta.get('gpu', '?')} (driver "
                                    f"{meta.get('driver', '?')})\n\n" + table(rows))
    return paths


def plot_slowdowns(rows: list[dict], path: Path, title: str):
    """One panel per workload: time / in-memory time against x, a line per
    dream backend (and chunked), UVM first touch and read-mostly as marks at x = 0."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    works = list(dict.fromkeys(r["workload"] for r in rows))
    cols = min(4, len(works)) or 1
    nrows = -(-len(works) // cols) or 1
    fig, axes = plt.subplots(nrows, cols, figsize=(4.2 * cols, 3.4 * nrows), squeeze=False)
    for ax, wname in zip(axes.flat, works):
        # time / in-memory where the run measured it, else plain seconds
        y = "vs_in_memory" if any("vs_in_memory" in r for r in rows if r["workload"] == wname) \
            else "seconds"
        mine = [r for r in rows if r["workload"] == wname and y in r]
        lines = {}
        for r in mine:
            if r["system"] in ("dream", "chunked"):
                key = f"dream {r['backend']}" if r["system"] == "dream" else r.get("label", "chunked copy")
                if r["system"] == "dream" and len({q["page"] for q in mine if "page" in q}) > 1:
                    key += f" {r['page'] >> 10} KiB"
                lines.setdefault(key, []).append((r["x"], r[y]))
        for key, pts in lines.items():
            pts.sort()
            ax.plot(*zip(*pts), "o-", label=key)
        for system, mark in (("uvm", "rs"), ("uvm_rm", "m^")):
            got = [r[y] for r in mine if r["system"] == system]
            if got:
                ax.plot([0], got[:1], mark, label={"uvm": "UVM first touch",
                                                  "uvm_rm": "UVM read-mostly"}[system])
        if y == "vs_in_memory":
            ax.axhline(1.0, color="k", ls=":", lw=0.8)
        ax.set_yscale("log")
        ax.set_title(wname, fontsize=9)
        ax.set_xlabel("oversubscription x (ring = data / (1 + x))", fontsize=8)
        ax.set_ylabel("time / in-memory" if y == "vs_in_memory" else "seconds (no baseline run)",
                      fontsize=8)
        ax.legend(fontsize=6)
    for ax in list(axes.flat)[len(works):]:
        ax.axis("off")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def machine(device: int = 0) -> dict:
    """The device, driver and host every result file names."""
    from ..runtime.cuda import require_gpu
    from .. import __version__
    gpu = require_gpu(device)
    return {"gpu": gpu.name, "arch": gpu.arch, "sms": gpu.sms, "gpu_memory": gpu.memory,
            "driver": nvidia_driver(), "cuda_driver": gpu.driver_version,
            "cuda_runtime": gpu.runtime_version, "host": platform.node(), "dream": __version__}


def nvidia_driver() -> str:
    """The kernel driver's version (e.g. 580.159.04), from /proc."""
    try:
        text = Path("/proc/driver/nvidia/version").read_text()
    except OSError as e:
        return f"unknown ({type(e).__name__})"
    import re
    m = re.search(r"\b(\d+\.\d+(?:\.\d+)?)\b", text)
    return m.group(1) if m else "unknown"


def table(rows: list[dict]) -> str:
    """A Markdown table of the timed rows (what README and notes quote)."""
    head = ("| workload | system | backend | x | seconds | vs in-memory | vs UVM | pages in | exact "
            "| resident: seconds, vs in-memory |\n"
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
    body = []
    for r in rows:
        if "seconds" not in r:
            why = r.get("skipped") or r.get("error", "")
            body.append(f"| {r['workload']} | {r['system']} | {r.get('backend', '')} | {r['x']} | "
                        f"{why[:60]} | | | | | |")
            continue
        f = lambda k: f"{r[k]:.2f}" if k in r else ""  # noqa: E731
        rounds = lambda k: f" ({r[k]} rounds)" if k in r else ""  # noqa: E731
        body.append(f"| {r['workload']} | {r['system']} | {r.get('backend', '')} | {r['x']} | "
                    f"{r['seconds']:.4f}{rounds('iterations')} | {f('vs_in_memory')} | {f('vs_uvm')} | "
                    f"{r.get('pages_in', '')} | {r.get('exact', '')} | "
                    + (f"{r['warm_seconds']:.4f}{rounds('warm_iterations')}, {f('warm_vs_in_memory')} |"
                       if "warm_seconds" in r else " |"))
    return head + "\n".join(body) + "\n"


def points(w_count: int, plan: Plan) -> int:
    """Rows a sweep of `w_count` workloads emits (the progress bar's total)."""
    base = sum(s in plan.systems for s in ("in_memory", "uvm", "uvm_rm"))
    dream_rows = len(plan.backends) * len(plan.pages) * len(plan.xs) if "dream" in plan.systems else 0
    chunked = len(plan.xs) if "chunked" in plan.systems else 0
    return w_count * (base + dream_rows + chunked)


def run_experiment(name: str, workloads, w_count: int, plan: Plan) -> int:
    """Runs run_workload over `workloads` (an iterable, so that inputs can be
    built one at a time) with a progress bar; rows go to <out>/<name>.jsonl
    as they come, then JSON, CSV, PNG and a Markdown table. Exit status 1 if
    any result was wrong or any run failed."""
    from tqdm import tqdm
    meta = {**machine(plan.device), "plan": {
        "backends": [label(b, o) for b, o in plan.backends], "oversubscription": plan.xs,
        "pages": plan.pages, "runs": plan.runs, "systems": list(plan.systems), "quick": plan.quick}}
    plan.out.mkdir(parents=True, exist_ok=True)
    rows = []
    with open(plan.out / f"{name}.jsonl", "w") as live, \
            tqdm(total=points(w_count, plan), desc=name, unit="point") as bar:
        def log(line):
            live.write(line + "\n")
            live.flush()
        for w in workloads:
            bar.set_postfix_str(w.name)
            rows += run_workload(w, plan, log=log, progress=bar)
    paths = write_results(rows, plan.out, name, meta)
    print(table(rows))
    print("wrote " + ", ".join(str(p) for p in paths))
    bad = [r for r in rows if r.get("exact") is False or r.get("warm_exact") is False
           or "error" in r]
    for r in bad:
        print(f"FAILED: {r['workload']} {r['system']} {r.get('backend', '')} x={r['x']}: "
              f"{r.get('error') or {k: v for k, v in r.items() if k.startswith('wrong_')}}")
    return 1 if bad else 0


def rebuild(jsonl: Path, out: Path, name: str, meta: dict | None = None) -> list[Path]:
    """JSON, CSV, PNG and table from the rows a run streamed to
    <name>.jsonl (so a run cut short still gives its figures)."""
    rows = add_ratios([json.loads(line) for line in Path(jsonl).read_text().splitlines() if line])
    meta = meta or {"gpu": rows[0]["gpu"] if rows else "?", "driver": rows[0].get("driver", "?")
                    if rows else "?", "rebuilt_from": str(jsonl)}
    return write_results(rows, out, name, meta)
