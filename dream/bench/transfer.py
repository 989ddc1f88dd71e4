"""`dream bench transfer`: streaming read and random 4 KiB-block gather
through dream_ptr, page size 4 KiB..1 MiB, frame ring = data / (1 + x) (x = 3
by default: 1/4 of the data), against baselines measured in the same run on
the same bytes:

  bulk_h2d         cudaMemcpy from pinned host memory (the PCIe ceiling)
  batched_copy_4k  the copy engines moving the gather's 4 KiB blocks
                   (cudaMemcpyBatchAsync)
  zero_copy        the same kernel on a raw pointer to pinned memory (no paging)
  uvm              the same kernel on cudaMallocManaged memory, first touch from
                   the host (a size that fits in GPU memory: never oversubscribed)

and the serial fault latency of one warp. The nvme backend reads its own file
(the first --nvme-data bytes of the data, in the first nvme backend's
directory: nvme:directory=..., else --nvme-dir, else the temporary directory),
compared also with pread + copy and GPUDirect Storage on that file.
Every dream pass starts cold (rt.evict()) and is checked by an xor checksum.
Writes transfer.json (with the machine), transfer.csv and transfer.png under
--out; exit status 1 if a checksum was wrong or a point failed.

    dream bench transfer --data 8GiB --backend direct,softrnic,nvme
    dream bench transfer --quick --backend direct,softrnic:queue_memory=host
    python -m dream.bench transfer --page 4KiB,64KiB --oversubscription 1 --runs 5

--oversubscription takes one x (the first value given). --quick: 512MiB of
data (256MiB for nvme) and pages 4KiB,64KiB, unless --data, --nvme-data or
--page say otherwise.
"""
from __future__ import annotations

import csv
import json
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .cli import Sweep, common_arguments, finish, sweep
from . import nvme_baseline
from .harness import Managed, uvm_fits
from .transfer_kernels import GATHER, SERIAL, STREAM, dream_source, raw_source

BLOCK = 256
WARPS_PER_SM = 64  # the stream and gather kernels' warps on each SM: pages in flight
GATHER_BLOCK = 4096


def fill_pattern(buf_u64: np.ndarray):
    """Non-zero, non-repeating 64-bit words, fast (never time on zeros)."""
    step = 1 << 24
    for lo in range(0, buf_u64.size, step):
        idx = np.arange(lo, min(lo + step, buf_u64.size), dtype=np.uint64)
        buf_u64[lo: lo + idx.size] = (idx * np.uint64(0x9E3779B97F4A7C15)) ^ np.uint64(0x5DEECE66D)


def xor_words(u32: np.ndarray, blocks=None) -> int:
    """The xor the kernels compute, over all or over the given 4 KiB blocks."""
    if blocks is None:
        return int(np.bitwise_xor.reduce(u32, dtype=np.uint32))
    acc = np.uint32(0)
    per = GATHER_BLOCK // 4
    view = u32.reshape(-1, per)
    for lo in range(0, blocks.size, 1 << 16):
        acc ^= np.bitwise_xor.reduce(view[blocks[lo: lo + (1 << 16)]].reshape(-1), dtype=np.uint32)
    return int(acc)


def timed(fn, reps, before=None):
    """Median seconds of `reps` calls after one warm-up (fn synchronizes);
    `before` runs, untimed, ahead of each call."""
    if before:
        before()
    fn()
    ts = []
    for _ in range(reps):
        if before:
            before()
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return float(np.median(ts)), ts


def event_time(fn, reps):
    import cupy
    fn()
    ts = []
    for _ in range(reps):
        a, b = cupy.cuda.Event(), cupy.cuda.Event()
        a.record()
        fn()
        b.record()
        b.synchronize()
        ts.append(cupy.cuda.get_elapsed_time(a, b) / 1e3)
    return float(np.median(ts)), ts


def bulk_h2d(pinned, nbytes, reps) -> dict:
    """The bulk pinned host-to-device copy of the data: every figure's
    ceiling."""
    import cupy
    dev = cupy.empty(nbytes, np.uint8)
    t, _ = event_time(lambda: cupy.cuda.runtime.memcpy(dev.data.ptr, pinned.host_ptr, nbytes, 1),
                      reps)
    return {"GBps": nbytes / t / 1e9, "seconds": t}


def grid_stream(n16, warps):
    """Elements per warp when `warps` warps split n16 elements."""
    return -(-n16 // warps)


def run_baselines(rt_raw, pinned, nbytes, blocks, reps, results, checks):
    """Fills `results` with the baselines; the zero-copy kernels' checksums are
    checked by one more, untimed, call."""
    import cupy
    n16 = nbytes // 16
    sink = cupy.zeros(1, np.uint64)
    stream = rt_raw.kernel(raw_source(STREAM), "stream")
    gather = rt_raw.kernel(raw_source(GATHER), "gather")
    results["bulk_h2d"] = bulk_h2d(pinned, nbytes, reps)

    results["batched_copy_4k"] = batched_copy_4k(pinned, blocks, reps)

    warps = rt_raw.gpu.sms * WARPS_PER_SM
    per_warp = grid_stream(n16, warps)
    blocks_d = cupy.asarray(blocks)
    ptr = pinned.device_ptr

    def zc_stream():
        stream(warps * 32 // BLOCK, BLOCK, (ptr, np.uint64(n16), np.uint64(per_warp), sink))
    t, _ = timed(zc_stream, reps)
    results["zero_copy_stream"] = {"GBps": nbytes / t / 1e9, "seconds": t,
                                   "checksum_ok": _checked(zc_stream, sink, checks["all"])}

    def zc_gather():
        gather(warps * 32 // BLOCK, BLOCK, (ptr, blocks_d, np.uint64(blocks.size), sink))
    t, _ = timed(zc_gather, reps)
    results["zero_copy_gather"] = {"GBps": blocks.size * GATHER_BLOCK / t / 1e9, "seconds": t,
                                   "checksum_ok": _checked(zc_gather, sink, checks["gather"])}

    # UVM first touch: the host writes every page, then the GPU reads them
    ok, why = uvm_fits(nbytes)
    if not ok:
        results["uvm_note"] = why
        return
    mem = Managed(pinned.bytes)
    for name, call, moved in (
            ("uvm_stream", lambda: stream(warps * 32 // BLOCK, BLOCK,
                                          (mem.ptr, np.uint64(n16), np.uint64(per_warp), sink)),
             nbytes),
            ("uvm_gather", lambda: gather(warps * 32 // BLOCK, BLOCK,
                                          (mem.ptr, blocks_d, np.uint64(blocks.size), sink)),
             blocks.size * GATHER_BLOCK)):
        t, _ = timed(call, reps, mem.touch_on_host)
        results[name] = {"GBps": moved / t / 1e9, "seconds": t}
    del mem


def _checked(call, sink, expect) -> bool:
    sink.fill(0)
    call()
    return int(sink.get()[0]) == expect


def batched_copy_4k(pinned, blocks, reps, batch=4096):
    """The copy engines moving the gather's random 4 KiB blocks host->device,
    cudaMemcpyBatchAsync in batches of `batch` (what a soft engine can do)."""
    import cupy
    from cuda.bindings import runtime as crt
    dev = cupy.empty(blocks.size * GATHER_BLOCK, np.uint8)
    dsts = (dev.data.ptr + np.arange(blocks.size, dtype=np.uint64) * GATHER_BLOCK).tolist()
    srcs = (pinned.host_ptr + blocks * np.uint64(GATHER_BLOCK)).tolist()
    attr = crt.cudaMemcpyAttributes()
    attr.srcAccessOrder = crt.cudaMemcpySrcAccessOrder.cudaMemcpySrcAccessOrderStream
    stream = cupy.cuda.Stream(non_blocking=True)  # the batch API refuses the legacy stream

    def run():
        for lo in range(0, blocks.size, batch):
            k = min(batch, blocks.size - lo)
            err, = crt.cudaMemcpyBatchAsync(dsts[lo: lo + k], srcs[lo: lo + k], [GATHER_BLOCK] * k,
                                            k, [attr], [0], 1, stream.ptr)
            if err != crt.cudaError_t.cudaSuccess:
                raise RuntimeError(f"cudaMemcpyBatchAsync: {err}")
    with stream:
        t, _ = event_time(run, reps)
    return {"GBps": blocks.size * GATHER_BLOCK / t / 1e9, "seconds": t, "batch": batch}


def launch_shape(rt, kernel):
    """(grid, block) of the dream kernels: the baselines' shape (WARPS_PER_SM
    warps on every SM in blocks of BLOCK threads), cut to what can be
    resident. Any shape runs on any ring (fault.cuh). One warp per frame at
    most, as the frame check once required, left a 64 KiB ring of 1,024
    frames 32 warps: 0.26x (softrnic) and 0.31x (direct) bulk H2D, against
    0.57x for both in this shape (H200)."""
    resident = kernel.resident_threads((10**9, 1, 1), (BLOCK, 1, 1)) // BLOCK
    return max(1, min(resident, rt.gpu.sms * WARPS_PER_SM * 32 // BLOCK)), BLOCK


def run_dream(backend, opts, page, make_array, nbytes, blocks, reps, checks, gpu_memory, device=0):
    import cupy
    import dream
    n16 = nbytes // 16
    out = {"backend": backend, "options": opts, "page_size": page, "ring_bytes": gpu_memory}
    with dream.Runtime(backend=backend, page_size=page, gpu_memory=gpu_memory, device=device,
                       **opts) as rt:
        a = make_array(rt)
        sink = cupy.zeros(1, np.uint64)
        stream = rt.kernel(dream_source(STREAM), "stream")
        gather = rt.kernel(dream_source(GATHER), "gather")
        grid, block = launch_shape(rt, stream)
        per_warp = grid_stream(n16, grid * block // 32)

        def do_stream():
            sink.fill(0)
            stream(grid, block, (a, np.uint64(n16), np.uint64(per_warp), sink))
        rt.reset_stats()
        t, ts = timed(do_stream, reps, rt.evict)  # every pass starts cold
        ok = int(sink.get()[0]) == checks["all"]
        s = rt.stats()
        out["stream"] = {"GBps": nbytes / t / 1e9, "seconds": t, "all_seconds": ts,
                         "checksum_ok": ok, "stats": s.as_dict(), "grid": grid, "block": block}

        blocks_d = cupy.asarray(blocks)

        def do_gather():
            sink.fill(0)
            gather(grid, block, (a, blocks_d, np.uint64(blocks.size), sink))
        rt.reset_stats()
        t, ts = timed(do_gather, reps, rt.evict)
        ok = int(sink.get()[0]) == checks["gather"]
        s = rt.stats()
        out["gather"] = {"GBps": blocks.size * GATHER_BLOCK / t / 1e9, "seconds": t,
                         "all_seconds": ts, "checksum_ok": ok, "stats": s.as_dict(),
                         "moved_GBps": s.bytes_in / (reps + 1) / t / 1e9}
        out["transport"] = rt.describe()
    return out


def serial_step(n: int) -> int:
    """The serial kernel's step between its n pages: prime to n, so that n
    steps visit every page once, and each move (step, or step - n where it
    wraps) longer than any stride a fault reads ahead by. Of those, the one
    that visits each page's page before fewest steps after it (k, with
    step * k = -1 mod n), else n - k steps before: a fault reads ahead when
    the page before was loaded in the last few ms (fault.cuh, a sequence of
    warps), and no serial fault may, however fast faults become."""
    from ..runtime import abi
    far = abi.AHEAD_STRIDE + 1
    steps = [s for s in range(far, n - far + 1) if math.gcd(s, n) == 1]
    if steps:
        return min(steps, key=lambda s: -pow(s, -1, n) % n)
    raise ValueError(f"serial latency: {n} pages is too few to visit without read-ahead "
                     f"(at least {2 * far + 1})")


def serial_latency(backend, opts, page, data_u64, count=2000, device=0):
    """ns per fault of one warp touching `count` distinct pages in turn."""
    import cupy
    import dream
    nbytes = min(data_u64.nbytes, count * page)
    with dream.Runtime(backend=backend, page_size=page, gpu_memory=nbytes + 64 * page,
                       device=device, **opts) as rt:
        a = rt.array(data_u64[: nbytes // 8].view(np.complex128))
        k = rt.kernel(dream_source(SERIAL), "serial")
        sink, ns = cupy.zeros(1, np.uint64), cupy.zeros(1, np.uint64)
        n = nbytes // page
        k(1, 32, (a, np.uint64(page // 16), np.uint64(n), np.uint64(serial_step(n)), sink, ns))
        s = rt.stats()
        if s.pages_in != n or s.ahead:
            raise RuntimeError(f"serial latency: {s.pages_in} pages loaded ({s.ahead} read ahead), "
                               f"expected {n} faults: {s}")
        return int(ns.get()[0]) / (n - 1)


def zero_copy_latency(rt_raw, pinned, page, count=2000):
    import cupy
    k = rt_raw.kernel(raw_source(SERIAL), "serial")
    sink, ns = cupy.zeros(1, np.uint64), cupy.zeros(1, np.uint64)
    n = min(count, pinned.nbytes // page)
    args = (pinned.device_ptr, np.uint64(page // 16), np.uint64(n), np.uint64(serial_step(n)), sink, ns)
    k(1, 32, args)
    k(1, 32, args)
    return int(ns.get()[0]) / (n - 1)



def nvme_setup(directory, nvme_bytes, nvme_pages, pinned, blocks, res, say=print):
    """The nvme backend's file (the first `nvme_bytes` of the data, in
    `directory`) and the CPU-driven and GPUDirect Storage baselines on that
    same file."""
    from dream.runtime.pinned import PinnedBuffer
    size = min(nvme_bytes, pinned.nbytes)
    path = Path(directory) / "dream_transfer.bin"
    with open(path, "wb") as f:
        f.write(memoryview(pinned.bytes[:size]))
        f.flush()
        os.fsync(f.fileno())
    bl = blocks[blocks < size // GATHER_BLOCK]
    u32 = pinned.view(np.uint32)[: size // 4]
    staging = PinnedBuffer(256 << 20)
    res["nvme_file"] = {"path": str(path), "bytes": size}
    res["nvme_cpu_baseline"] = nvme_baseline.cpu_baseline(path, staging, total=size)
    try:
        res["nvme_gds_baseline"] = nvme_baseline.gds_baseline(path, 256 << 20, total=size)
    except Exception as e:  # cuFile needs GDS support under the file: say why not
        res["nvme_gds_baseline"] = {"available": False, "why": f"{type(e).__name__}: {e}"}
    say(f"  nvme GPUDirect Storage baseline: {str(res['nvme_gds_baseline'])[:160]}")
    staging.free()
    for k, v in res["nvme_cpu_baseline"].items():
        say(f"  nvme baseline pread+copy {k:10s} {v['gbps']:6.2f} GB/s {v['iops']:10,.0f} IOPS "
            f"(read {v['read_s']:.2f} s, copy {v['copy_s']:.2f} s)")
    return {"path": path, "bytes": size, "blocks": bl,
            "checks": {"all": xor_words(u32), "gather": xor_words(u32, bl)},
            "pages": list(nvme_pages)}


def plot(res, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from dream.runtime.sizes import format_size
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    base = res["baselines"]
    x = res["oversubscription"]
    ring = f"ring 1/{1 + x}" if x else "ring holds all"
    for ax, kind, zc, uvm in ((axes[0], "stream", "zero_copy_stream", "uvm_stream"),
                              (axes[1], "gather", "zero_copy_gather", "uvm_gather")):
        for label, runs in res["dream"].items():
            pts = [(r["page_size"], r[kind]["GBps"]) for r in runs if kind in r]
            if label.startswith("nvme"):
                label += " (own file; see nvme_cpu_baseline)"
            if pts:
                xs, ys = zip(*pts)
                ax.plot(xs, ys, "o-", label=f"dream {label}")
        ax.axhline(base["bulk_h2d"]["GBps"], color="k", ls="--", label="bulk pinned H2D")
        ax.axhline(base[zc]["GBps"], color="gray", ls=":", label="zero-copy (no paging)")
        if uvm in base:
            ax.axhline(base[uvm]["GBps"], color="r", ls="-.", label="UVM first touch")
        if kind == "gather":
            ax.axhline(base["batched_copy_4k"]["GBps"], color="g", ls=":",
                       label="copy engines, batched 4 KiB")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("dream page size (bytes)")
        ax.set_ylabel("GB/s")
        ax.set_title(f"{kind}: {format_size(res['data_bytes'])}, {ring} "
                     f"({'4 KiB random blocks' if kind == 'gather' else 'sequential'})")
        ax.legend(fontsize=7)
    fig.suptitle(f"dream transfer on {res['gpu']} (driver {res.get('driver', '?')})")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_csv(res, path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["gpu", "driver", "backend", "page_size", "ring_bytes", "pattern", "GBps",
                    "vs_bulk_h2d", "vs_zero_copy", "vs_uvm", "vs_batched_copy_4k", "vs_cpu_pread",
                    "checksum_ok"])
        for label, runs in res["dream"].items():
            for r in runs:
                for kind in ("stream", "gather"):
                    if kind in r:
                        x = r[kind]
                        w.writerow([res["gpu"], res.get("driver", ""), label, r["page_size"],
                                    r.get("ring_bytes", ""), kind, f"{x['GBps']:.3f}",
                                    f"{x['vs_bulk_h2d']:.3f}", f"{x['vs_zero_copy']:.3f}",
                                    f"{x.get('vs_uvm', float('nan')):.3f}",
                                    f"{x.get('vs_batched_copy_4k', float('nan')):.3f}",
                                    f"{x.get('vs_cpu_pread', float('nan')):.3f}", x["checksum_ok"]])


# -- the command ----------------------------------------------------------------

PAGES = "4KiB,16KiB,64KiB,256KiB,1MiB"
DATA, NVME_DATA, NVME_PAGES = "8GiB", "2GiB", "4KiB,64KiB"
QUICK_DATA, QUICK_PAGES, QUICK_NVME_DATA = "512MiB", "4KiB,64KiB", "256MiB"


def add_arguments(p):
    common_arguments(p, backends="direct", xs="3", pages=PAGES, runs=3, systems=None)
    # None: the full or the --quick default, decided in settings()
    p.set_defaults(page=None)
    p.add_argument("--data", default=None,
                   help=f"bytes of data, whole MiB (default {DATA}; --quick {QUICK_DATA})")
    p.add_argument("--gather-fraction", type=float, default=0.25,
                   help="random 4 KiB blocks read, as a fraction of the data (default 0.25)")
    p.add_argument("--nvme-data", default=None,
                   help=f"file size for the nvme backend, at most --data (default {NVME_DATA}; "
                   f"--quick {QUICK_NVME_DATA})")
    p.add_argument("--nvme-pages", default=NVME_PAGES,
                   help=f"page sizes for the nvme backend (default {NVME_PAGES})")


@dataclass
class Settings(Sweep):
    """What run() measures, from the command line."""
    gather_fraction: float
    nvme_data: int
    nvme_pages: list


def settings(args) -> Settings:
    from dream.runtime.errors import ConfigError
    from dream.runtime.sizes import parse_size
    common = sweep(args, "transfer", DATA, QUICK_DATA, PAGES, QUICK_PAGES)
    data = common["data"]
    if not 0 < args.gather_fraction <= 1 or int(data * args.gather_fraction) < GATHER_BLOCK:
        raise ConfigError(f"--gather-fraction {args.gather_fraction}: in (0, 1], and at least "
                          f"one {GATHER_BLOCK}-byte block of the data")
    nvme = parse_size(args.nvme_data or (QUICK_NVME_DATA if args.quick else NVME_DATA), "--nvme-data")
    return Settings(**common, gather_fraction=args.gather_fraction, nvme_data=min(nvme, data),
                    nvme_pages=[parse_size(v, "--nvme-pages") for v in args.nvme_pages.split(",")])


def points(st: Settings) -> int:
    """Measured points (the progress bar's total): the baselines, the nvme
    baselines, every backend's page sizes and its serial latency."""
    n = 1 + any(name == "nvme" for name, _ in st.backends)
    for name, _ in st.backends:
        n += len(st.nvme_pages if name == "nvme" else st.pages) + 1
    return n


def run(args) -> int:
    from tqdm import tqdm
    import cupy
    import dream
    from dream.runtime.cuda import require_gpu
    from dream.runtime.pinned import PinnedBuffer
    from dream.runtime.sizes import format_size
    from .harness import label as backend_label, machine, raw_runtime, ring_bytes
    st = settings(args)
    nbytes, reps = st.data, st.runs
    t0 = time.perf_counter()
    gpu = require_gpu(st.device)
    out_dir = st.out
    out_dir.mkdir(parents=True, exist_ok=True)
    cupy.cuda.Device(st.device).use()
    pinned = PinnedBuffer(nbytes)
    data = pinned.view(np.uint64)
    fill_pattern(data)
    rng = np.random.default_rng(1)
    blocks = rng.integers(0, nbytes // GATHER_BLOCK,
                          int(nbytes * st.gather_fraction) // GATHER_BLOCK).astype(np.uint64)
    u32 = pinned.view(np.uint32)
    checks = {"all": xor_words(u32), "gather": xor_words(u32, blocks)}
    print(f"{gpu.name}: {format_size(nbytes)} of data, {blocks.size:,} random 4 KiB blocks, "
          f"ring = data / {1 + st.x}; set-up {time.perf_counter() - t0:.1f} s", flush=True)

    res = {"experiment": "transfer", **machine(st.device), "device": gpu.__dict__,
           "plan": {"backends": [backend_label(b, o) for b, o in st.backends], "pages": st.pages,
                    "nvme_pages": st.nvme_pages, "quick": st.quick},
           "data_bytes": nbytes, "oversubscription": st.x, "gather_blocks": int(blocks.size),
           "runs": reps, "baselines": {}, "dream": {}, "serial_latency_ns": {}}
    failed = []
    with tqdm(total=points(st), desc="transfer", unit="point") as bar:
        say = bar.write
        bar.set_postfix_str("baselines")
        with raw_runtime(st.device) as rt_raw:
            run_baselines(rt_raw, pinned, nbytes, blocks, reps, res["baselines"], checks)
            res["serial_latency_ns"]["zero_copy_512B"] = zero_copy_latency(rt_raw, pinned, 4096)
        for k, v in res["baselines"].items():
            if isinstance(v, dict):
                say(f"  baseline {k:18s} {v['GBps']:7.2f} GB/s")
                if v.get("checksum_ok") is False:
                    failed.append(f"baseline {k}: wrong checksum")
        bar.update(1)

        nvme = None
        nvme_dirs = [o["directory"] for name, o in st.backends if name == "nvme"]
        if nvme_dirs:
            bar.set_postfix_str("nvme baselines")
            nvme = nvme_setup(nvme_dirs[0], st.nvme_data, st.nvme_pages, pinned, blocks, res, say)
            bar.update(1)

        for name, opts in st.backends:
            label = backend_label(name, opts)
            bar.set_postfix_str(label)
            ok, why = dream.runtime.backends.all_backends()[name].availability()  # a known name (parse_backends)
            if not ok:
                res["dream"][label] = [{"skipped": why}]
                say(f"  {label}: skipped: {why}")
                bar.update(len(st.nvme_pages if name == "nvme" else st.pages) + 1)
                continue
            runs = res["dream"].setdefault(label, [])
            if name == "nvme":
                size, bl, ck, pgs = nvme["bytes"], nvme["blocks"], nvme["checks"], nvme["pages"]
                path = nvme["path"]

                def make(rt, size=size, path=path):
                    return rt.open(path, np.complex128, size // 16, mode="r")
            else:
                size, bl, ck, pgs = nbytes, blocks, checks, st.pages

                def make(rt):
                    return rt.array(data.view(np.complex128), name="data")
            for page in pgs:
                if name == "nvme":  # the cache as the option says, whatever the baselines left
                    cache = opts.get("cache", "cold")
                    (nvme_baseline.warm_cache if cache == "warm" else nvme_baseline.drop_cache)(path)
                try:
                    r = run_dream(name, opts, page, make, size, bl, reps, ck,
                                  ring_bytes(size, st.x, page), st.device)
                except Exception as e:  # record and go on: one backend's failure is a result too
                    runs.append({"page_size": page, "error": f"{type(e).__name__}: {e}"})
                    failed.append(f"{label} page {page >> 10} KiB: {type(e).__name__}: {e}")
                    say(f"  {label} page {page >> 10} KiB: FAILED: {type(e).__name__}: {e}")
                    bar.update(1)
                    continue
                b = res["baselines"]
                if name == "nvme":
                    cache = opts.get("cache", "cold")
                    cpu = res["nvme_cpu_baseline"]
                    r["stream"]["vs_cpu_pread"] = r["stream"]["GBps"] / cpu[f"seq_{cache}"]["gbps"]
                    r["gather"]["vs_cpu_pread"] = r["gather"]["GBps"] / cpu[f"rand_{cache}"]["gbps"]
                    r["gather"]["iops_4k"] = bl.size / r["gather"]["seconds"]
                for kind, zc, uvm in (("stream", "zero_copy_stream", "uvm_stream"),
                                      ("gather", "zero_copy_gather", "uvm_gather")):
                    r[kind]["vs_bulk_h2d"] = r[kind]["GBps"] / b["bulk_h2d"]["GBps"]
                    r[kind]["vs_zero_copy"] = r[kind]["GBps"] / b[zc]["GBps"]
                    if uvm in b:
                        r[kind]["vs_uvm"] = r[kind]["GBps"] / b[uvm]["GBps"]
                r["gather"]["vs_batched_copy_4k"] = r["gather"]["GBps"] / b["batched_copy_4k"]["GBps"]
                runs.append(r)
                for kind in ("stream", "gather"):
                    if not r[kind]["checksum_ok"]:
                        failed.append(f"{label} page {page >> 10} KiB {kind}: wrong checksum")
                say(f"  {label:28s} page {page >> 10:5d} KiB  stream {r['stream']['GBps']:6.2f} GB/s "
                    f"({r['stream']['vs_bulk_h2d']:.2f}x H2D, {r['stream'].get('vs_uvm', 0):.1f}x UVM) "
                    f"gather {r['gather']['GBps']:6.2f} GB/s ({r['gather'].get('vs_uvm', 0):.1f}x UVM, "
                    f"{r['gather']['vs_batched_copy_4k']:.2f}x batched copies"
                    + (f"; vs pread+copy: stream {r['stream']['vs_cpu_pread']:.2f}x, gather "
                       f"{r['gather']['vs_cpu_pread']:.2f}x, {r['gather']['iops_4k']:,.0f} IOPS"
                       if name == "nvme" else "")
                    + f") ok={r['stream']['checksum_ok'] and r['gather']['checksum_ok']}")
                bar.update(1)
            try:
                lat = serial_latency(name, opts, 4096, data, device=st.device)
                say(f"  {label}: serial fault latency {lat / 1e3:.2f} us at 4 KiB")
            except Exception as e:
                lat = float("nan")
                failed.append(f"{label} serial latency: {type(e).__name__}: {e}")
                say(f"  {label}: serial latency FAILED: {type(e).__name__}: {e}")
            res["serial_latency_ns"][label + " 4KiB"] = lat
            bar.update(1)
            (out_dir / "transfer.json").write_text(json.dumps(res, indent=1, default=str))

    return finish(res, failed, out_dir, "transfer", write_csv, plot)
