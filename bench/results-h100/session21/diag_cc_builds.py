"""cc-csr's first hook (Kronecker scale 20, direct, x = 0) with every page
resident, in three ways: the resident build (every array at home), the
general build with every array at home (DREAM_PTR_AT_HOME: the same plain
access, behind a flag test, with the slow paths' calls in the code), and the
general build through entries (homes off: fault.cuh O6). Which costs: the
general build's code, or O6's translation? (session 21 diag)"""
import time
import numpy as np, cupy
from dream.bench.graph import make_graph, workloads
from dream.bench.harness import DreamSystem, Placed, ring_bytes
from dream.runtime import kernel as K

g = make_graph("kron", 20, 16, 1)
w = next(workloads(g, ["cc"], ["csr"]))
s = DreamSystem("direct", {}, 4096, ring_bytes(w.data_bytes(), 0, 4096))
run = Placed(s, w)
rt = s.rt
first = {}
hook = run.k["cc_hook"]
def timed(*a):
    cupy.cuda.Device().synchronize()
    t = time.perf_counter(); hook(*a); cupy.cuda.Device().synchronize()
    first.setdefault("t", time.perf_counter() - t)
run.k["cc_hook"] = timed
pack, at_home = K.Kernel._pack, rt._at_home
def general(self, args, warps):
    return pack(self, args, warps)[0], False
data = {"rowptr": g.rowptr, "col": g.col}
for rep in range(2):
    for label in ("resident build", "general build at home", "general build, homes off"):
        K.Kernel._pack = general if label.startswith("general") else pack
        rt._at_home = (lambda: frozenset()) if "homes off" in label else at_home
        first.clear()
        run.resident = False
        w.reset(run, 0)
        s.cold(run)
        for name in ("rowptr", "col", "comp"):
            s.put(run[name], data.get(name, np.arange(g.n, dtype=np.int32)))
        cupy.cuda.Device().synchronize()
        w.launch(run, 0); cupy.cuda.Device().synchronize()
        print(f"{label:26s} first hook {first['t']*1e3:7.2f} ms", flush=True)
K.Kernel._pack = pack
s.close()
