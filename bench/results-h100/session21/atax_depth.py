"""ATAX's kernels at x = 8 with the launch's read-ahead depth forced (session 21 diag)."""
import sys, time, json
import numpy as np, cupy, dream
from dream.bench.polybench import SOURCE
from dream.bench.harness import DREAM_BUILD, ring_bytes
from dream.runtime import abi
n = 16384
A = np.random.default_rng(1).random((n, n), dtype=np.float32)
v = cupy.asarray(np.random.default_rng(2).random(n, dtype=np.float32))
out = cupy.zeros(n, np.float32)
with dream.Runtime(backend="direct", page_size=4096, gpu_memory=ring_bytes(A.nbytes, 8, 4096)) as rt:
    a = rt.array(A.reshape(-1))
    ks = {k: rt.kernel(DREAM_BUILD + SOURCE, k) for k in ("rows", "cols")}
    orig = rt._launch_flags
    for depth in [None, 31, 15, None, 31, 15]:
        mask = ~(abi.PTR_AHEAD_MASK << abi.PTR_AHEAD_SHIFT)
        rt._launch_flags = orig if depth is None else (lambda w, d=depth: (orig(w) & mask) | d << abi.PTR_AHEAD_SHIFT)
        for k in ("rows", "cols"):
            rt.evict(); rt.reset_stats(); out.fill(0); cupy.cuda.Device().synchronize()
            t = time.perf_counter()
            ks[k](n // 256, 256, (a, v, out, np.int32(n), np.int32(n)))
            cupy.cuda.Device().synchronize()
            dt = time.perf_counter() - t
            s = rt.stats().as_dict()
            print(f"depth={depth or 'default'} {k} {dt*1e3:.2f} ms", json.dumps({q: s[q] for q in ("faults", "pages_in", "ahead", "gathered", "coalesced", "evictions")}), flush=True)
