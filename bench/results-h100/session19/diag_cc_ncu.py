"""cc-csr's cc_hook with every page resident, at home or not (session-19 diag, run under ncu).

  python diag_cc_ncu.py home|nohomes

Kronecker scale 20, direct, 4 KiB pages, x = 0: `home` launches with the
arrays' homes (fault.cuh O7: addresses from p.home), `nohomes` as a launch
that began with pages absent does (every access through its entry, O6).
Under `ncu --kernel-name cc_hook --launch-count 1` the profile is the first
hook of the second label's run."""
import sys, time
import numpy as np, cupy
from dream.bench.graph import make_graph, workloads
from dream.bench.harness import DreamSystem, Placed, ring_bytes

label = sys.argv[1]
g = make_graph("kron", 20, 16, 1)
w = next(workloads(g, ["cc"], ["csr"]))
s = DreamSystem("direct", {}, 4096, ring_bytes(w.data_bytes(), 0, 4096))
run = Placed(s, w)
rt = s.rt
if label == "nohomes":
    rt._at_home = lambda: frozenset()
run.resident = False
w.reset(run, 0)
s.cold(run)
for name, data in (("rowptr", g.rowptr), ("col", g.col), ("comp", np.arange(g.n, dtype=np.int32))):
    s.put(run[name], data)
cupy.cuda.Device().synchronize()
t = time.perf_counter(); w.launch(run, 0); cupy.cuda.Device().synchronize()
print(f"{label}: run {time.perf_counter() - t:.4f} s")
s.close()
