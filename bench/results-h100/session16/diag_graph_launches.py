"""Per-launch time and counters of the CSR graph kernels, cold then warm (session-16 diag)."""
import sys, time
import numpy as np, cupy
from dream.bench.graph import make_graph, workloads
from dream.bench.harness import DreamSystem, Placed, ring_bytes
g = make_graph("kron", 20, 16, 1)
deg = np.diff(g.rowptr)
print("max degree", int(deg.max()), "zero-degree", int((deg == 0).sum()), "n", g.n)
for w in workloads(g, sys.argv[1].split(","), ["csr"]):
    s = DreamSystem("direct", {}, 4096, ring_bytes(w.data_bytes(), 0, 4096))
    run = Placed(s, w)
    rt = s.rt
    def wrap(name, f):
        def call(*a):
            rt.reset_stats(); cupy.cuda.Device().synchronize()
            t = time.perf_counter(); f(*a); cupy.cuda.Device().synchronize(); dt = time.perf_counter() - t
            d = rt.stats().as_dict()
            print(f"  {name:12s} {dt*1e3:8.2f} ms faults {d['faults']:8d} in {d['pages_in']:6d} coalesced {d['coalesced']:8d} "
                  f"wait/fault {d['wait_ns']/max(1,d['faults'])/1e3:8.1f} us ahead {d['ahead']}")
        return call
    run.k = {n: wrap(n, f) for n, f in run.k.items()}
    for label in ("cold", "warm"):
        run.resident = label == "warm"
        w.reset(run, 0)
        if label == "cold":
            s.cold(run)
        cupy.cuda.Device().synchronize()
        t = time.perf_counter(); w.launch(run, 0); cupy.cuda.Device().synchronize()
        print(w.name, label, round(time.perf_counter() - t, 4))
    s.close()
