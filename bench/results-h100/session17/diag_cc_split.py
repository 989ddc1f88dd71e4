"""Which array's cold pages make cc-csr's first hook launch slow (session-17 diag).

cc-csr on a graph (kron or urand, scale 20), x = 0, direct, 4 KiB: the whole
run and its first cc_hook launch, with every big array cold, then with only
`col` cold (rowptr and comp written resident first), only comp cold, all
resident, and all resident with homes off (every access through its entry,
as in a launch that began with pages absent: fault.cuh O6 against O7)."""
import sys, time
import numpy as np, cupy
from dream.bench.graph import make_graph, workloads
from dream.bench.harness import DreamSystem, Placed, ring_bytes

for spec in sys.argv[1].split(","):
    g = make_graph(spec, 20, 16, 1)
    deg = np.diff(g.rowptr)
    print(f"{spec}: max degree {int(deg.max())}, mean {deg.mean():.1f}, n {g.n}")
    w = next(workloads(g, ["cc"], ["csr"]))
    s = DreamSystem("direct", {}, 4096, ring_bytes(w.data_bytes(), 0, 4096))
    run = Placed(s, w)
    rt = s.rt
    first = {}
    hook = run.k["cc_hook"]
    def timed(*a):
        rt.reset_stats(); cupy.cuda.Device().synchronize()
        t = time.perf_counter(); hook(*a); cupy.cuda.Device().synchronize()
        if "t" not in first:
            first["t"] = time.perf_counter() - t
            first["s"] = rt.stats().as_dict()
    run.k["cc_hook"] = timed
    data = {"rowptr": g.rowptr, "col": g.col}
    at_home = rt._at_home
    for label, warm in (("all cold", ()), ("col cold", ("rowptr", "comp")), ("comp cold", ("rowptr", "col")),
                        ("resident", ("rowptr", "col", "comp")), ("no homes", ("rowptr", "col", "comp")),
                        ("all cold", ())):
        rt._at_home = (lambda: frozenset()) if label == "no homes" else at_home
        first.clear()
        run.resident = False
        w.reset(run, 0)
        s.cold(run)
        for name in warm:
            s.put(run[name], data.get(name, np.arange(g.n, dtype=np.int32)))
        cupy.cuda.Device().synchronize()
        t = time.perf_counter(); w.launch(run, 0); cupy.cuda.Device().synchronize()
        d = first["s"]
        print(f"  {label:10s} run {time.perf_counter() - t:.4f} s, first hook {first['t']*1e3:7.2f} ms: faults {d['faults']}"
              f" in {d['pages_in']} coalesced {d['coalesced']} wait/fault {d['wait_ns']/max(1, d['faults'])/1e3:.1f} us")
    s.close()
