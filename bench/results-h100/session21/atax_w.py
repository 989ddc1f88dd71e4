"""ATAX's two kernels cold at x = 0 and x = 8, each launch alone: seconds and stats (session 21 diag)."""
import sys, time, json
import numpy as np, cupy, dream
from dream.bench.polybench import SOURCE
from dream.bench.harness import DREAM_BUILD, ring_bytes
tag = sys.argv[1]
xs = [int(x) for x in (sys.argv[2] if len(sys.argv) > 2 else "0,8").split(",")]
backend = sys.argv[3] if len(sys.argv) > 3 else "direct"
n = 16384
A = np.random.default_rng(1).random((n, n), dtype=np.float32)
v = cupy.asarray(np.random.default_rng(2).random(n, dtype=np.float32))
out = cupy.zeros(n, np.float32)
ref = {"rows": None, "cols": None}
for x in xs:
    with dream.Runtime(backend=backend, page_size=4096, gpu_memory=ring_bytes(A.nbytes, x, 4096)) as rt:
        a = rt.array(A.reshape(-1))
        ks = {k: rt.kernel(DREAM_BUILD + SOURCE, k) for k in ("rows", "cols")}
        for rep in range(2):
            for k in ("rows", "cols"):
                rt.evict()
                rt.reset_stats(); out.fill(0); cupy.cuda.Device().synchronize()
                t = time.perf_counter()
                ks[k](n // 256, 256, (a, v, out, np.int32(n), np.int32(n)))
                cupy.cuda.Device().synchronize()
                dt = time.perf_counter() - t
                s = rt.stats().as_dict()
                o = out.get()
                if ref[k] is None:
                    vv = v.get().astype(np.float64)
                    ref[k] = (A @ vv) if k == "rows" else (A.T @ vv)
                ok = np.allclose(o, ref[k], rtol=1e-3)
                print(tag, f"x={x}", k, round(dt * 1e3, 2), "ms ok" if ok else "ms WRONG",
                      json.dumps({q: s[q] for q in ("faults", "pages_in", "ahead", "coalesced", "evictions")}), flush=True)
