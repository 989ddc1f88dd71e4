"""Where cold CSR graph time goes (session 27): per launch time and fault stats,
Kronecker scale S, x = 0, direct, 4 KiB; all cold, then with some arrays written
resident first. argv: scale kernels(cc,bfs)"""
import sys, time
import numpy as np, cupy
from dream.bench.graph import make_graph, workloads
from dream.bench.harness import DreamSystem, Placed, ring_bytes

scale = int(sys.argv[1])
g = make_graph("kron", scale, 16, 1)
deg = np.diff(g.rowptr)
print(f"kron {scale}: n {g.n}, m {g.m}, max degree {int(deg.max())}, mean {deg.mean():.1f}", flush=True)
for kern in sys.argv[2].split(","):
    w = next(workloads(g, [kern], ["csr"]))
    s = DreamSystem("direct", {}, 4096, ring_bytes(w.data_bytes(), 0, 4096))
    run = Placed(s, w)
    rt = s.rt
    log = []
    for name in list(run.k):
        f = run.k[name]
        def timed(*a, f=f, name=name):
            rt.reset_stats(); cupy.cuda.Device().synchronize()
            t = time.perf_counter(); f(*a); cupy.cuda.Device().synchronize()
            log.append((name, time.perf_counter() - t, rt.stats().as_dict()))
        run.k[name] = timed
    small = [n for n in w.arrays() if n not in ("col", "rowptr")]
    for label, warm in (("all cold", ()), ("col cold", tuple(["rowptr"] + small)), ("col warm", ("col",)),
                        ("resident", tuple(["rowptr", "col"] + small)), ("all cold", ())):
        log.clear()
        s.cold(run)
        for name in warm:
            if name in ("rowptr", "col"):
                s.put(run[name], getattr(g, name))
        run.resident = any(n in warm for n in small)
        w.reset(run, 0)
        run.resident = False
        cupy.cuda.Device().synchronize()
        t = time.perf_counter(); w.launch(run, 0); cupy.cuda.Device().synchronize()
        total = time.perf_counter() - t
        print(f"{kern} {label:9s} run {total*1e3:8.1f} ms, {len(log)} launches", flush=True)
        for name, sec, d in log[:4] + ([("...", sum(x[1] for x in log[4:]), {})] if len(log) > 4 else []):
            if not d:
                print(f"    rest {sec*1e3:8.2f} ms"); continue
            fa = d["faults"]
            print(f"    {name:12s} {sec*1e3:8.2f} ms faults {fa:8d} in {d['pages_in']:7d} coalesced {d['coalesced']:8d}"
                  f" gathered {d['gathered']:6d} ahead {d['ahead']:6d} retries {d['retries']:6d}"
                  f" wait/fault {d['wait_ns']/max(1, fa)/1e3:7.1f} us", flush=True)
    s.close()
