"""Is CC's first hook its highest-degree vertex's thread? (session 29)
cc_hook over that one vertex (a block of 256 threads, one item) against the
whole first hook, every page resident, in the resident build, the general
build at home (genhome) and through entries (genentry). Kronecker 22,
direct, x = 0, 4 KiB; graph cached in /tmp/k22.npz."""
import os, time
import numpy as np, cupy
from dream.bench.graph import make_graph, workloads, BLOCK
from dream.bench.graphs import Graph
from dream.bench.harness import DreamSystem, Placed, ring_bytes
from dream.runtime import kernel as K
MODE = {"m": "resident"}
_pack = K.Kernel._pack
K.Kernel._pack = lambda self, args, warps: (lambda r: (r[0], r[1] and MODE["m"] == "resident"))(_pack(self, args, warps))
P = "/tmp/k22.npz"
if os.path.exists(P):
    z = np.load(P); g = Graph("kron22", z["rowptr"], z["col"])
else:
    g = make_graph("kron", 22, 16, 1); np.savez(P, rowptr=g.rowptr, col=g.col)
deg = np.diff(g.rowptr); vmax = int(deg.argmax())
print(f"max degree {deg[vmax]} at {vmax}; next {np.sort(deg)[-5:-1][::-1]}", flush=True)
w = next(workloads(g, ["cc"], ["csr"]))
s = DreamSystem("direct", {}, 4096, ring_bytes(w.data_bytes(), 0, 4096))
run = Placed(s, w); rt = s.rt
for name in ("rowptr", "col"):
    s.put(run[name], getattr(g, name))
run.resident = True
at_home = rt._at_home
for mode in ("resident", "genentry", "resident"):
    MODE["m"] = mode
    rt._at_home = (lambda: set()) if mode == "genentry" else at_home
    for what, wins in (("one vertex", [(vmax, vmax + 1)]), ("whole hook", [(0, g.n)]),
                       ("all but it", [(0, vmax), (vmax + 1, g.n)])):
        w.reset(run, 0); cupy.cuda.Device().synchronize()
        t = time.perf_counter()
        for lo, hi in wins:   # the two windows one after the other: the second waits for the first
            run.k["cc_hook"](max(1, -(-(hi - lo) // BLOCK)), BLOCK,
                             (run["rowptr"], np.uint64(lo), np.int32(0), np.int32(g.m), run["col"], run["comp"],
                              np.uint64(hi), w.changed))
        cupy.cuda.Device().synchronize()
        print(f"{mode:9s} {what:10s} {1e3 * (time.perf_counter() - t):7.1f} ms", flush=True)
s.close()
