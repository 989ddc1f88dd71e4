"""Cold CSR graph time per launch (session 29): Kronecker 22, direct, x = 0,
4 KiB; each kernel all cold then resident, REPS times. The graph is cached
in /tmp/k22.npz. argv: kernels(cc,bfs) reps modes(cold,resident,genhome,genentry)
genhome: every page resident at home, the general build; genentry: the
same, the arrays not flagged at home (every access through its entry)."""
import os, sys, time
import numpy as np, cupy
from dream.bench.graph import make_graph, workloads
from dream.bench.graphs import Graph
from dream.bench.harness import DreamSystem, Placed, ring_bytes
from dream.runtime import kernel as K
from cuda.bindings import driver
MODE = {"m": None}
_pack = K.Kernel._pack
def pack(self, args, warps):
    b, r = _pack(self, args, warps)
    return b, (r and MODE["m"] in ("resident", "cold"))
K.Kernel._pack = pack

P = "/tmp/k22.npz"
t = time.perf_counter()
if os.path.exists(P):
    z = np.load(P); g = Graph("kron22", z["rowptr"], z["col"])
else:
    g = make_graph("kron", 22, 16, 1); np.savez(P, rowptr=g.rowptr, col=g.col)
print(f"graph {time.perf_counter() - t:.0f} s", flush=True)
for kern in sys.argv[1].split(","):
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
    every = tuple(w.arrays())
    for name, kk in run.k.items():
        k0 = kk.__kwdefaults__["f"]
        if not isinstance(k0, K.Kernel):
            print(name, type(k0)); continue
        for res in (False, True):
            f = k0._builds[None][res]
            regs = driver.cuFuncGetAttribute(driver.CUfunction_attribute.CU_FUNC_ATTRIBUTE_NUM_REGS, f)[1]
            print(f"{name} {'resident' if res else 'general'} build: {regs} registers, "
                  f"{K.max_blocks_per_sm(f, 256)} blocks of 256 an SM", flush=True)
    at_home = rt._at_home
    for rep in range(int(sys.argv[2])):
        for label in sys.argv[3].split(","):
            warm = () if label == "cold" else every
            MODE["m"] = label
            rt._at_home = (lambda: set()) if label == "genentry" else at_home
            log.clear()
            s.cold(run)
            for name in warm:
                if name in ("rowptr", "col"):
                    s.put(run[name], getattr(g, name))
            run.resident = bool(warm)
            w.reset(run, 0)
            run.resident = False
            cupy.cuda.Device().synchronize()
            t = time.perf_counter(); w.launch(run, 0); cupy.cuda.Device().synchronize()
            total = time.perf_counter() - t
            parts = " ".join(f"{sec*1e3:.1f}" + (f"[{d['pages_in']}/{d['faults']},{d['wait_ns']/max(1, d['faults'])/1e3:.0f}us]"
                                                 if d.get('faults') else "") for _, sec, d in log)
            print(f"{kern} {label:8s} {total*1e3:7.1f} ms: {parts}", flush=True)
    s.close()
