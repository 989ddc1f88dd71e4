"""Session 49 (LABELS and the n suffix added in session 50): the no-evict build with its registers capped (argv[1]: the
cap, 0 = main's link; argv[2]: "graphs" or "polybench"). Measurement only:
both modules of the no-evict build get --maxrregcount=cap (the headers then
copy with 4 loads in flight a lane and keep no early start, direct.cuh);
the general and resident builds are main's. `graphs`: BFS and CC launch by
launch, cold, warm (the resident build) and warm in the no-evict build with
the arrays at home; `polybench`: `dream bench polybench` with argv[3:];
`serial`: session 35's serial fault. DREAM_INC: headers to build with. A cap
written with an n (80n) is not told to the headers (capped.py's rule).
CAPBUILD=resident caps the resident build's kernel module instead (its slow
paths keep RESIDENT_FAULT_REGISTERS)."""
import os
import sys
import time
from pathlib import Path
import dream.runtime.compile as C
import dream.runtime.kernel as K

if os.environ.get("DREAM_INC"):  # variant headers
    C.INCLUDE_DIR = Path(os.environ["DREAM_INC"])

cap, what = int(sys.argv[1].rstrip("n")), sys.argv[2]
if sys.argv[1].endswith("n"):  # the cap not told to the headers: 8 loads in flight a lane, early start kept
    C.register_cap = lambda options: ()
orig = K.link_kernel


CAPPED = os.environ.get("CAPBUILD", C.NO_EVICT)  # "resident": its kernel module alone capped


def capped(source, names, arch, defines, options=(), filename="kernel.cu", build=C.GENERAL):
    if build != CAPPED or not cap or C.own_budget(source, options):
        return orig(source, names, arch, defines, options, filename, build)
    opt = ("-rdc=true", f"--maxrregcount={cap}")
    fopt = ("-rdc=true", f"--maxrregcount={C.RESIDENT_FAULT_REGISTERS}") if build == C.RESIDENT else opt
    fault = C.compile_source("", (), arch, defines, fopt, "dream_fault.cu")
    own = tuple(d for d in (*defines, C.BUILD_DEFINES[build]) if not d.startswith("DREAM_BACKEND_"))
    kernel, lowered = C.compile_source(source, names, arch, (*own, "DREAM_FAULT_LINKED"), (*options, *opt), filename)
    return C._linked([kernel, fault[0]], arch), lowered


K.link_kernel = capped
if what == "serial":
    sys.argv = [sys.argv[0], f"cap{cap}"]
    exec(open(Path(__file__).parents[2] / "session35" / "scripts" / "serial.py").read())
    sys.exit(0)
if what == "polybench":
    from dream.bench.cli import main
    sys.exit(main(["polybench", *sys.argv[3:]]))
import cupy
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

    def wrapped(self, *a, **kw):
        sync()
        t = time.perf_counter(); r = call(self, *a, **kw); sync()
        log.append(f"{self.name}:{(time.perf_counter() - t) * 1e3:.1f}")
        return r

    def packed(self, args, warps):
        b, build = pack(self, args, warps)
        return b, (K.NO_EVICT if mode[0] == "warm-ne-home" and build == K.RESIDENT else build)
    K.Kernel.__call__, K.Kernel._pack = wrapped, packed
    for label in os.environ.get("LABELS", "cold warm warm-ne-home cold warm-ne-home").split():
        mode[0] = label
        run.resident = label != "cold"
        w.reset(run, 0)
        if label == "cold":
            s.cold(run)
        sync(); log.clear(); rt.reset_stats()
        t = time.perf_counter(); w.launch(run, 0); total = (time.perf_counter() - t) * 1e3
        print(f"cap {cap} {kern} {label}: {total:.1f} ms |", " ".join(x for x in log if not x.startswith("cc_short")),
              flush=True)
    K.Kernel.__call__, K.Kernel._pack = call, pack
    s.close()
