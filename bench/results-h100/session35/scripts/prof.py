"""Per-launch profile of BFS/CC (Kronecker scale): dream cold and resident, in-memory."""
import os, sys, time, cupy
from dream.bench import graph as G, graphs as GS, harness as H

label, scale, kernels = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(",")
runs = int(os.environ.get("RUNS", "2"))
g = GS.kronecker(scale)
for kern in kernels:
    w = next(G.workloads(g, [kern], ["csr"]))
    for name in os.environ.get("SYSTEMS", "dream,in_memory").split(","):
        system = H.RawSystem("in_memory") if name == "in_memory" else \
            H.DreamSystem("direct", {}, 4096, H.ring_bytes(w.data_bytes(), 0, 4096))
        placed = H.Placed(system, w)
        log = []
        for nm, k in list(placed.k.items()):
            def timed(grid, block, args, _k=k, _nm=nm):
                cupy.cuda.Device().synchronize()
                s0 = system.counters()
                t = time.perf_counter()
                _k(grid, block, args)
                cupy.cuda.Device().synchronize()
                s1 = system.counters()
                log.append((_nm, time.perf_counter() - t, {x: s1[x] - s0.get(x, 0) for x in s1}))
            placed.k[nm] = timed
        for run in range(runs):
            for cold in ([True, False] if name != "in_memory" else [True]):
                log.clear()
                placed.resident = not cold
                w.reset(placed, 0)
                if cold:
                    system.cold(placed)
                system.reset_counters()
                cupy.cuda.Device().synchronize()
                t = time.perf_counter()
                w.launch(placed, 0)
                total = time.perf_counter() - t
                err = w.errors(placed, 0)
                per = " ".join(f"{n[:4]}{dt*1e3:.1f}" + (f"/{c['pages_in']//1000}K" if c.get('pages_in') else "")
                               for n, dt, c in log)
                print(f"{label} {kern} {name} run{run} {'cold' if cold else 'res '} total {total*1e3:.1f} ms "
                      f"err {err} | {per}", flush=True)
        system.close()
