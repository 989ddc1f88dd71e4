"""ATAX's kernels at x = 0 split by access mode (session 22 diag): cold (O6 + faults), every page resident
through O6 entries (homes off), every page resident through O5 (the launch told it may evict), at home; and
x = 8 for reference."""
import sys, time, json
import numpy as np, cupy, dream
from dream.bench.polybench import SOURCE
from dream.bench.harness import DREAM_BUILD, ring_bytes
from dream.runtime import abi
tag = sys.argv[1]
n = 16384
A = np.random.default_rng(1).random((n, n), dtype=np.float32)
v = cupy.asarray(np.random.default_rng(2).random(n, dtype=np.float32))
out = cupy.zeros(n, np.float32)
ref = {"rows": A @ v.get().astype(np.float64), "cols": A.T @ v.get().astype(np.float64)}
def run(rt, k, label):
    rt.reset_stats(); out.fill(0); cupy.cuda.Device().synchronize()
    t = time.perf_counter()
    ks[k](n // 256, 256, (a, v, out, np.int32(n), np.int32(n)))
    cupy.cuda.Device().synchronize()
    dt = time.perf_counter() - t
    s = rt.stats().as_dict()
    ok = np.allclose(out.get(), ref[k], rtol=1e-3)
    print(tag, f"{k:4s} {label:22s} {dt*1e3:7.2f} ms", "ok" if ok else "WRONG",
          json.dumps({q: s[q] for q in ("faults", "pages_in", "coalesced", "retries", "ahead", "wait_ns")}), flush=True)
for x in (0, 8):
    with dream.Runtime(backend="direct", page_size=4096, gpu_memory=ring_bytes(A.nbytes, x, 4096)) as rt:
        a = rt.array(A.reshape(-1))
        ks = {k: rt.kernel(DREAM_BUILD + SOURCE, k) for k in ("rows", "cols")}
        flags, at_home = rt._launch_flags, rt._at_home
        for k in ("rows", "cols"):
            rt.evict(); run(rt, k, f"x={x} cold")
            if x:
                continue
            run(rt, k, "x=0 at home")
            rt._at_home = lambda: frozenset()
            run(rt, k, "x=0 resident O6")
            rt._launch_flags = lambda w: flags(w) & ~abi.PTR_NO_EVICT
            run(rt, k, "x=0 resident O5")
            rt._launch_flags, rt._at_home = flags, at_home
