"""Session 48: one BFS (Kronecker 22, direct, x = 0) for Nsight Compute to
profile its third launch (the walk of the vertex of degree 163,060 decides
it). argv[1]: cold (dream, the general build), warm (a cold run, then the
same with every page resident: the resident build) or mem (in-memory)."""
import sys
from dream.bench.graph import make_graph, workloads
from dream.bench.harness import DreamSystem, Placed, RawSystem, ring_bytes
mode = sys.argv[1]
g = make_graph("kron", 22, 16, 1)
w = next(workloads(g, ["bfs"], ["csr"]))
s = RawSystem("in_memory") if mode == "mem" else DreamSystem("direct", {}, 4096, ring_bytes(w.data_bytes(), 0, 4096))
run = Placed(s, w)
for cold in ((True,) if mode != "warm" else (True, False)):
    run.resident = not cold
    w.reset(run, 0)
    if cold:
        s.cold(run)
    w.launch(run, 0)
s.close()
print(mode, "done")
