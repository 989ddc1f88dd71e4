"""Session 49: what cold BFS and CC pay in the no-evict build's access path
apart from their faults (Kronecker 22, direct, x = 0). Each launch timed
alone: cold; warm (every page resident: the resident build); `warm-ne`,
warm with no array told at home (Runtime._at_home answers none: the
no-evict build, each access through its entry until O8 finds the array
whole, as in a cold launch once its pages are in); `warm-ne-home`, warm in
the no-evict build with the arrays at home (their flags set). Not a product
path: the patches are this script's."""
import time
import cupy
import dream.runtime.kernel as K
from dream.bench.graph import make_graph, workloads
from dream.bench.harness import DreamSystem, Placed, ring_bytes

g = make_graph("kron", 22, 16, 1)
sync = cupy.cuda.Device().synchronize
call, pack = K.Kernel.__call__, K.Kernel._pack
for kern in ("bfs", "cc"):
    w = next(workloads(g, [kern], ["csr"]))
    s = DreamSystem("direct", {}, 4096, ring_bytes(w.data_bytes(), 0, 4096))
    run = Placed(s, w)
    rt = s.rt
    log, mode = [], [""]
    home = rt._at_home

    def wrapped(self, *a, **kw):
        sync()
        t = time.perf_counter(); r = call(self, *a, **kw); sync()
        log.append(f"{self.name}:{(time.perf_counter() - t) * 1e3:.1f}")
        return r

    def packed(self, args, warps):
        b, build = pack(self, args, warps)
        return b, (K.NO_EVICT if mode[0] == "warm-ne-home" and build == K.RESIDENT else build)
    K.Kernel.__call__, K.Kernel._pack = wrapped, packed
    for label in ("cold", "warm", "warm-ne", "warm-ne-home", "cold", "warm", "warm-ne", "warm-ne-home"):
        mode[0] = label
        rt._at_home = (lambda: set()) if label == "warm-ne" else home
        run.resident = label != "cold"
        w.reset(run, 0)
        if label == "cold":
            s.cold(run)
        sync(); log.clear(); rt.reset_stats()
        w.launch(run, 0)
        st = rt.stats()
        print(f"{kern} {label}: total {sum(float(x.split(':')[1]) for x in log):.1f} ms, pages_in {st.pages_in}, "
              f"whole {st.whole} |", " ".join(x for x in log if not x.startswith("cc_short")), flush=True)
    K.Kernel.__call__, K.Kernel._pack = call, pack
    rt._at_home = home
    s.close()
