"""CC hook per launch (session 30): Kronecker 22, the first hook over every
vertex, the top vertex alone, and the shortcut; in-memory (raw build) or
dream resident (direct, x = 0, every array put at home). argv: system
(raw, raw_norestrict, dream) reps"""
import os, sys, time
import numpy as np, cupy
from dream.bench.graph import make_graph, workloads
from dream.bench.graphs import Graph
from dream.bench import harness
from dream.bench.harness import DreamSystem, RawSystem, Placed, ring_bytes
P = "/tmp/k22.npz"
if os.path.exists(P):
    z = np.load(P); g = Graph("kron22", z["rowptr"], z["col"])
else:
    g = make_graph("kron", 22, 16, 1); np.savez(P, rowptr=g.rowptr, col=g.col)
kind, reps = sys.argv[1], int(sys.argv[2])
if kind == "raw_norestrict":
    harness.RAW_BUILD = harness.RAW_BUILD.replace("T *__restrict__", "T *")
w = next(workloads(g, ["cc"], ["csr"]))
s = DreamSystem("direct", {}, 4096, ring_bytes(w.data_bytes(), 0, 4096)) if kind == "dream" else RawSystem("in_memory")
run = Placed(s, w)
if kind == "dream":
    s.cold(run)
    for name in ("rowptr", "col"):
        s.put(run[name], getattr(g, name))
    run.resident = True
deg = np.diff(g.rowptr); top = int(np.argmax(deg))
sync = cupy.cuda.Device().synchronize
def hook(lo, hi):
    run.k["cc_hook"](max(1, -(-(hi - lo) // 256)), 256, (run["rowptr"], np.uint64(lo), np.int32(0), np.int32(g.m),
                     run["col"], run["comp"], np.uint64(hi), w.changed))
def short():
    run.k["cc_shortcut"](max(1, -(-g.n // 256)), 256, (run["comp"], np.uint64(g.n)))
out = {}
for rep in range(reps):
    for label, f in (("hook1", lambda: hook(0, g.n)), ("top", lambda: hook(top, top + 1)),
                     ("rest", lambda: (hook(0, top), hook(top + 1, g.n))), ("hook1+short", lambda: (hook(0, g.n), short()))):
        w.reset(run, 0); sync()
        t = time.perf_counter(); f(); sync()
        out.setdefault(label, []).append((time.perf_counter() - t) * 1e3)
if kind == "dream":
    st = s.rt.stats().as_dict(); print("faults", st.get("faults"), "pages_in", st.get("pages_in"))
print(kind, os.environ.get("VARIANT", ""), "top degree", int(deg[top]), " ".join(f"{k} {min(v):.1f}-{max(v):.1f} ms" for k, v in out.items()), flush=True)
s.close()
