"""`dream bench queues`: random 4 KiB-block gather through a queue backend as
the number of queues grows (DREAM Fig. 11), against bulk pinned H2D of the
same bytes measured in the same run. The gather reads a quarter of the data
in random 4 KiB blocks; frame ring = data / (1 + x) (x = 3 by default: 1/4 of
the data); every pass starts cold (rt.evict()) and is checked by an xor
checksum. Writes queues.json (with the machine), queues.csv and queues.png
under --out; exit status 1 if a checksum was wrong or a point failed.

    dream bench queues --backend softrnic --queues 1,2,4,8,16,32,64,132
    dream bench queues --backend softrnic,softrnic:queue_memory=host,nvme
    dream bench queues --quick

Each backend runs at every --queues count and --page size. Its queues live
where its queue_memory option says (softrnic:queue_memory=host), else where
--queue-memory says. --oversubscription takes one x (the first value given).
--quick: 256MiB of data and queue counts 1,4,16, unless --data or --queues
say otherwise.
"""
from __future__ import annotations

import csv
import time
from dataclasses import dataclass

import numpy as np

from ..runtime.queue_memory import DEFAULT as QUEUE_MEMORY, PLACEMENTS
from .cli import Sweep, common_arguments, finish, sweep
from .transfer import GATHER_BLOCK, fill_pattern, launch_shape, timed, xor_words
from .transfer_kernels import GATHER, dream_source

DATA, QUEUES = "1GiB", "1,2,4,8,16,32,64,132"
QUICK_DATA, QUICK_QUEUES = "256MiB", "1,4,16"


def add_arguments(p):
    common_arguments(p, backends="softrnic", xs="3", pages="4KiB", runs=3, systems=None)
    p.add_argument("--queues", default=None,
                   help=f"queue counts, comma-separated (default {QUEUES}; --quick {QUICK_QUEUES})")
    p.add_argument("--queue-memory", default=QUEUE_MEMORY, choices=tuple(PLACEMENTS),
                   help="where the queues live, for backends whose options do not say "
                   f"(default {QUEUE_MEMORY}; dream/runtime/queue_memory.py)")
    p.add_argument("--data", default=None,
                   help=f"bytes of data, whole MiB (default {DATA}; --quick {QUICK_DATA})")


@dataclass
class Settings(Sweep):
    """What run() measures, from the command line."""
    queues: list
    queue_memory: str         # for backends whose options do not name one


def settings(args) -> Settings:
    from dream.runtime.errors import ConfigError
    common = sweep(args, "queues", DATA, QUICK_DATA)
    try:
        queues = [int(q) for q in (args.queues or (QUICK_QUEUES if args.quick else QUEUES)).split(",")]
    except ValueError as e:
        raise ConfigError(f"--queues: whole numbers ({e})") from None
    if min(queues) < 1:
        raise ConfigError(f"--queues {args.queues}: at least 1 queue")
    return Settings(**common, queues=queues, queue_memory=args.queue_memory)


def points(st: Settings) -> int:
    """Measured points (the progress bar's total)."""
    return len(st.backends) * len(st.pages) * len(st.queues)


def measure(backend, opts, page, q, ring, host, blocks_d, nblocks, check, runs, device):
    """One point: the gather through `backend` with `q` queues."""
    import cupy
    import dream
    with dream.Runtime(backend=backend, page_size=page, gpu_memory=ring, device=device,
                       **{**opts, "queues": q}) as rt:
        a = rt.array(host.view(np.complex128))
        k = rt.kernel(dream_source(GATHER), "gather")
        sink = cupy.zeros(1, np.uint64)
        grid, block = launch_shape(rt, k)

        def one():
            sink.fill(0)
            k(grid, block, (a, blocks_d, np.uint64(nblocks), sink))
        rt.reset_stats()
        t, ts = timed(one, runs, rt.evict)
        s = rt.stats()
        return {"seconds": t, "all_seconds": ts, "GBps": nblocks * GATHER_BLOCK / t / 1e9,
                "checksum_ok": int(sink.get()[0]) == check,
                "requests_per_doorbell": s.requests / max(1, s.doorbells), "stats": s.as_dict(),
                "grid": grid, "block": block}


CSV_FIELDS = ("gpu", "driver", "backend", "queue_memory", "page_size", "ring_bytes", "queues",
              "GBps", "vs_bulk_h2d", "requests_per_doorbell", "checksum_ok", "skipped", "error")


def write_csv(res, path):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS, extrasaction="ignore")
        w.writeheader()
        for r in res["runs"]:
            w.writerow({"gpu": res["gpu"], "driver": res["driver"],
                        **{k: (round(v, 4) if isinstance(v, float) else v) for k, v in r.items()}})


def plot(res, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 4))
    lines = {}
    several_pages = len({r.get("page_size") for r in res["runs"] if "GBps" in r}) > 1
    for r in res["runs"]:
        if "GBps" not in r:
            continue
        key = f"dream {r['backend']} ({r['queue_memory']} queues)"
        if several_pages:
            key += f" {r['page_size'] >> 10} KiB"
        lines.setdefault(key, []).append((r["queues"], r["GBps"]))
    for key, pts in lines.items():
        ax.plot(*zip(*sorted(pts)), "o-", label=key)
    ax.axhline(res["bulk_h2d_GBps"], color="k", ls="--", label="bulk pinned H2D")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("queues")
    ax.set_ylabel("GB/s (random 4 KiB blocks)")
    ax.set_title(f"queue-count sweep on {res['gpu']}", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def run(args) -> int:
    from tqdm import tqdm
    import cupy
    from dream.runtime.backends import all_backends
    from dream.runtime.cuda import require_gpu
    from dream.runtime.pinned import PinnedBuffer
    from .harness import label as backend_label, machine, ring_bytes
    from .transfer import bulk_h2d
    st = settings(args)
    gpu = require_gpu(st.device)
    cupy.cuda.Device(st.device).use()
    nbytes = st.data
    host = PinnedBuffer(nbytes)
    fill_pattern(host.view(np.uint64))
    blocks = np.random.default_rng(2).integers(0, nbytes // GATHER_BLOCK,
                                               nbytes // 4 // GATHER_BLOCK).astype(np.uint64)
    check = xor_words(host.view(np.uint32), blocks)
    t0 = time.perf_counter()
    h2d = bulk_h2d(host, nbytes, st.runs)["GBps"]
    res = {"experiment": "queues", **machine(st.device),
           "backends": [backend_label(b, o) for b, o in st.backends],
           "queue_memory": st.queue_memory, "data_bytes": nbytes, "oversubscription": st.x,
           "gather_blocks": int(blocks.size), "timed_runs": st.runs, "quick": st.quick,
           "bulk_h2d_GBps": h2d, "runs": []}
    print(f"{gpu.name}: bulk H2D {h2d:.2f} GB/s ({time.perf_counter() - t0:.1f} s set-up)")
    blocks_d = cupy.asarray(blocks)
    failed = []
    with tqdm(total=points(st), desc="queues", unit="point") as bar:
        for name, opts in st.backends:
            opts = {"queue_memory": st.queue_memory, **opts}
            label = backend_label(name, {k: v for k, v in opts.items() if k != "queue_memory"})
            ok, why = all_backends()[name].availability()  # a known name (parse_backends)
            if not ok:   # a backend that cannot run here is a result, not a failure
                res["runs"].append({"backend": label, "queue_memory": opts["queue_memory"],
                                    "skipped": why})
                bar.write(f"  {label}: skipped: {why}")
                bar.update(len(st.pages) * len(st.queues))
                continue
            for page in st.pages:
                ring = ring_bytes(nbytes, st.x, page)
                for q in st.queues:
                    bar.set_postfix_str(f"{label} {page >> 10} KiB, {q} queues")
                    r = {"backend": label, "queue_memory": opts["queue_memory"], "page_size": page,
                         "ring_bytes": ring, "queues": q}
                    try:
                        r.update(measure(name, opts, page, q, ring, host, blocks_d, blocks.size,
                                         check, st.runs, st.device))
                    except Exception as e:  # a point that fails is a result too
                        r["error"] = f"{type(e).__name__}: {e}"
                        failed.append(f"{label} ({r['queue_memory']} queues) page {page >> 10} KiB, "
                                      f"{q} queues: {r['error']}")
                        bar.write(f"  {label} queues {q:4d}: FAILED: {r['error']}")
                    else:
                        r["vs_bulk_h2d"] = r["GBps"] / h2d
                        if not r["checksum_ok"]:
                            failed.append(f"{label} ({r['queue_memory']} queues) page "
                                          f"{page >> 10} KiB, {q} queues: wrong checksum")
                        bar.write(f"  {label} ({r['queue_memory']} queues) page {page >> 10} KiB "
                                  f"queues {q:4d}: {r['GBps']:6.2f} GB/s ({r['vs_bulk_h2d']:.2f}x "
                                  f"H2D), {r['requests_per_doorbell']:.2f} requests/doorbell, "
                                  f"ok={r['checksum_ok']}")
                    res["runs"].append(r)
                    bar.update(1)
    return finish(res, failed, st.out, "queues", write_csv, plot)
