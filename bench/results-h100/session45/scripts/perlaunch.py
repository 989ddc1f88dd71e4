"""Session 45: cold BFS and CC (Kronecker 22, direct, x = 0) launch by launch,
for the general build at main's link (argv[1] = 0) or capped at argv[1]
registers (capped.py's link): each launch timed alone, with its faults,
pages loaded, faults served by another's load and wait a fault; then warm."""
import sys, time
sys.argv = [sys.argv[0], sys.argv[1], "--list"]
import cupy
exec(open(__file__.replace("perlaunch.py", "capped.py")).read().split("from dream.bench.cli")[0])
from dream.bench.graph import make_graph, workloads
from dream.bench.harness import DreamSystem, Placed, ring_bytes
g = make_graph("kron", 22, 16, 1)
sync = cupy.cuda.Device().synchronize
call = K.Kernel.__call__
for kern in ("bfs", "cc"):
    w = next(workloads(g, [kern], ["csr"]))
    s = DreamSystem("direct", {}, 4096, ring_bytes(w.data_bytes(), 0, 4096))
    run = Placed(s, w)
    rt = s.rt
    log = []

    def wrapped(self, grid, block, args, *a, **kw):
        sync()
        rt.reset_stats()
        t = time.perf_counter(); r = call(self, grid, block, args, *a, **kw); sync()
        st = rt.stats()
        per = st.wait_ns / st.faults / 1e3 if st.faults else 0
        log.append(f"  {self.name:12s} {(time.perf_counter() - t) * 1e3:7.2f} ms faults {st.faults} pages_in {st.pages_in} "
                   f"coalesced {st.coalesced} ahead {st.ahead} wait/fault {per:.1f} us")
        return r
    K.Kernel.__call__ = wrapped
    for label, cold in (("cold", True), ("cold", True), ("warm", False)):
        run.resident = not cold
        w.reset(run, 0)
        if cold:
            s.cold(run)
        sync(); log.clear()
        t = time.perf_counter(); w.launch(run, 0); total = (time.perf_counter() - t) * 1e3
        print(f"cap {cap} {kern} {label}: {total:.1f} ms", *log, sep="\n", flush=True)
    K.Kernel.__call__ = call
    s.close()
