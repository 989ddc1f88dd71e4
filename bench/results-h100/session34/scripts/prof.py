"""Per-launch profile of cold BFS/CC (Kronecker scale): dream served vs general build, server counts."""
import sys, time, json, numpy as np, cupy
from dream.bench import graph as G, graphs as GS, harness as H
from dream.runtime import kernel as K

label, modes = sys.argv[1], sys.argv[2].split(",")   # modes: served[:servers], general, in_memory
scale = int(sys.argv[3]) if len(sys.argv) > 3 else 22
kernels = sys.argv[4].split(",") if len(sys.argv) > 4 else ["bfs", "cc"]
orig = K.Kernel._pack
force = {"general": False}
def pack(self, args, warps):
    b, build = orig(self, args, warps)
    return b, ("general" if force["general"] and build == "served" else build)
K.Kernel._pack = pack
g = GS.kronecker(scale)
print(f"graph n={g.n} m={g.m}", flush=True)
for kern in kernels:
    w = next(G.workloads(g, [kern], ["csr"]))
    for mode in modes:
        name, _, srv = mode.partition(":")
        force["general"] = name == "general"
        if name == "in_memory":
            system = H.RawSystem("in_memory")
        else:
            system = H.DreamSystem("direct", {"fault_servers": int(srv)} if srv else {}, 4096,
                                   H.ring_bytes(w.data_bytes(), 0, 4096))
        placed = H.Placed(system, w)
        log = []
        for nm, k in list(placed.k.items()):
            def timed(grid, block, args, _k=k, _nm=nm):
                cupy.cuda.Device().synchronize()
                s0 = system.counters()
                t = time.perf_counter()
                _k(grid, block, args)
                cupy.cuda.Device().synchronize()
                dt = time.perf_counter() - t
                s1 = system.counters()
                log.append((_nm, dt, {x: s1[x] - s0.get(x, 0) for x in s1}))
            placed.k[nm] = timed
        for run in range(2):
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
                per = " ".join(f"{n[:4]}{dt*1e3:.1f}" + (f"/{c['pages_in']//1000}K,f{c['faults']//1000}K" if c.get('pages_in') else "") for n, dt, c in log)
                print(f"{label} {kern} {mode} run{run} {'cold' if cold else 'res '} total {total*1e3:.1f} ms err {err} | {per}", flush=True)
        system.close()
