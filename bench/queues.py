"""bench/queues: random 4 KiB-block gather through a queue backend as the
number of queues grows (DREAM Fig. 11), against bulk pinned H2D of the same
bytes measured in the same run. Writes queues.json and queues.png.

    python bench/queues.py --backend softrnic --queues 1,2,4,8,16,32,64,132
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernels import GATHER, dream_source  # noqa: E402
from transfer import GATHER_BLOCK, fill_pattern, timed, xor_words  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--backend", default="softrnic")
    p.add_argument("--queues", default="1,2,4,8,16,32,64,132")
    p.add_argument("--queue-memory", default="gpu")
    p.add_argument("--data", default="1GiB")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--out", default="bench/results")
    args = p.parse_args(argv)

    import cupy
    import dream
    from dream.runtime.cuda import require_gpu
    from dream.runtime.pinned import PinnedBuffer
    from dream.runtime.sizes import parse_size
    gpu = require_gpu(0)
    nbytes = parse_size(args.data, "--data")
    host = PinnedBuffer(nbytes)
    fill_pattern(host.view(np.uint64))
    blocks = np.random.default_rng(2).integers(0, nbytes // GATHER_BLOCK,
                                               nbytes // 4 // GATHER_BLOCK).astype(np.uint64)
    check = xor_words(host.view(np.uint32), blocks)
    dev = cupy.empty(nbytes, np.uint8)
    t0 = time.perf_counter()
    ev = [cupy.cuda.Event(), cupy.cuda.Event()]
    ev[0].record()
    cupy.cuda.runtime.memcpy(dev.data.ptr, host.host_ptr, nbytes, 1)
    ev[1].record()
    ev[1].synchronize()
    h2d = nbytes / (cupy.cuda.get_elapsed_time(*ev) / 1e3) / 1e9
    del dev
    res = {"gpu": gpu.name, "backend": args.backend, "queue_memory": args.queue_memory,
           "data_bytes": nbytes, "gather_blocks": int(blocks.size), "bulk_h2d_GBps": h2d, "runs": []}
    print(f"{gpu.name}: bulk H2D {h2d:.2f} GB/s ({time.perf_counter() - t0:.1f} s set-up)")
    blocks_d = cupy.asarray(blocks)
    for q in [int(x) for x in args.queues.split(",")]:
        with dream.Runtime(backend=args.backend, page_size="4KiB", gpu_memory=nbytes // 4,
                           queues=q, queue_memory=args.queue_memory) as rt:
            a = rt.array(host.view(np.complex128))
            k = rt.kernel(dream_source(GATHER), "gather")
            sink = cupy.zeros(1, np.uint64)
            warps = min(k.resident_threads((10**9, 1, 1), (256, 1, 1)), rt.nframes) // 32
            block = 32 * max(1, min(8, warps // gpu.sms))
            grid = max(1, warps * 32 // block)

            def run():
                sink.fill(0)
                k(grid, block, (a, blocks_d, np.uint64(blocks.size), sink))
            rt.reset_stats()
            t, _ = timed(run, args.reps, rt.evict)
            s = rt.stats()
            gbps = blocks.size * GATHER_BLOCK / t / 1e9
            r = {"queues": q, "GBps": gbps, "vs_bulk_h2d": gbps / h2d,
                 "checksum_ok": int(sink.get()[0]) == check,
                 "requests_per_doorbell": s.requests / max(1, s.doorbells), "stats": s.as_dict()}
            res["runs"].append(r)
            print(f"  queues {q:4d}: {gbps:6.2f} GB/s ({r['vs_bulk_h2d']:.2f}x H2D), "
                  f"{r['requests_per_doorbell']:.2f} requests/doorbell, ok={r['checksum_ok']}",
                  flush=True)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "queues.json").write_text(json.dumps(res, indent=1, default=str))
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot([r["queues"] for r in res["runs"]], [r["GBps"] for r in res["runs"]], "o-",
            label=f"dream {args.backend} ({args.queue_memory} queues)")
    ax.axhline(h2d, color="k", ls="--", label="bulk pinned H2D")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("queues")
    ax.set_ylabel("GB/s (random 4 KiB blocks)")
    ax.set_title(f"queue-count sweep on {gpu.name}")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "queues.png", dpi=110)
    print(f"wrote {out}/queues.json, queues.png")


if __name__ == "__main__":
    main()
