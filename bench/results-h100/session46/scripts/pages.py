"""Session 46: BFS and CC (Kronecker 22, direct, x = 0) launch by launch, on
plain device memory, UVM first touch, and dream cold and warm at the page
sizes in argv[1:] (default 4096 65536): where a cold launch's time goes.
Each launch timed alone (synchronized before and after), with dream's
faults, pages loaded, faults served by another's load, wait a fault."""
import sys, time
import cupy
import dream.runtime.kernel as K
from dream.bench.graph import make_graph, workloads
from dream.bench.harness import DreamSystem, Placed, RawSystem, ring_bytes

pages = [int(a) for a in sys.argv[1:]] or [4096, 65536]
g = make_graph("kron", 22, 16, 1)
sync = cupy.cuda.Device().synchronize
call = K.Kernel.__call__
log = []
rt = None


def wrapped(self, grid, block, args, *a, **kw):
    sync()
    if rt is not None:
        rt.reset_stats()
    t = time.perf_counter(); r = call(self, grid, block, args, *a, **kw); sync()
    line = f"  {self.name:12s} {(time.perf_counter() - t) * 1e3:7.2f} ms"
    if rt is not None:
        st = rt.stats()
        per = st.wait_ns / st.faults / 1e3 if st.faults else 0
        line += (f" faults {st.faults} pages_in {st.pages_in} coalesced {st.coalesced} "
                 f"ahead {st.ahead} wait/fault {per:.1f} us")
    log.append(line)
    return r


K.Kernel.__call__ = wrapped
for kern in ("bfs", "cc"):
    w = next(workloads(g, [kern], ["csr"]))
    systems = [("in_memory", lambda: RawSystem("in_memory")), ("uvm", lambda: RawSystem("uvm"))]
    systems += [(f"dream{p}", lambda p=p: DreamSystem("direct", {}, p, ring_bytes(w.data_bytes(), 0, p)))
                for p in pages]
    for name, make in systems:
        s = make()
        run = Placed(s, w)
        rt = s.rt if name.startswith("dream") else None
        modes = (("cold", True), ("cold", True), ("warm", False)) if rt else (("cold", True), ("cold", True))
        for label, cold in modes:
            run.resident = not cold
            w.reset(run, 0)
            if cold:
                s.cold(run)
            sync(); log.clear()
            t = time.perf_counter(); res = w.launch(run, 0); total = (time.perf_counter() - t) * 1e3
            print(f"{name} {kern} {label}: {total:.1f} ms {res}", *log, sep="\n", flush=True)
        errs = w.errors(run, 0)
        print(f"{name} {kern} errors {errs}", flush=True)
        rt = None
        s.close()
