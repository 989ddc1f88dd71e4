"""Session 49: where cold BFS's fourth launch and CC's first hook lose time
(Kronecker 22, direct, x = 0). Each launch timed alone (session 45's
perlaunch), in memory, UVM first touch, dream cold and warm; then dream cold
with, before the launch named, an untimed kernel that loads a set of col's
pages: `heavy`, every page of the lists that span more than 2 pages (walked
by one lane each, a fault a page in turn), or `rand`, as many other pages
drawn at random. If heavy lists' serial faults are the loss, `heavy` takes
most of it and `rand` little."""
import time
import numpy as np
import cupy
from dream.bench.graph import make_graph, workloads
from dream.bench.harness import DreamSystem, RawSystem, Placed, ring_bytes
import dream.runtime.kernel as K

TOUCH = r'''
extern "C" __global__ void touch(ARR(int) col, const long long *pages, long long n, int *sink) {
    const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n && col[pages[i] * 1024] == -7) *sink = 1;
}'''
g = make_graph("kron", 22, 16, 1)
rp = g.rowptr.astype(np.int64)
deg = np.diff(rp)
first, last = rp[:-1] * 4 >> 12, (rp[1:] * 4 - 1) >> 12
span = np.where(deg > 0, last - first + 1, 0)
heavy = np.unique(np.concatenate([np.arange(first[v], last[v] + 1) for v in np.nonzero(span > 2)[0]]))
rest = np.setdiff1d(np.arange((g.m * 4 + 4095) >> 12), heavy)
rand = np.sort(np.random.default_rng(1).choice(rest, heavy.size, replace=False))
print(f"col pages {rest.size + heavy.size}, heavy {heavy.size}", flush=True)
sync = cupy.cuda.Device().synchronize
call = K.Kernel.__call__
before = {"bfs": ("bfs_step", 3), "cc": ("cc_hook", 0)}
for kern in ("bfs", "cc"):
    w = next(workloads(g, [kern], ["csr"]))
    for sysname in ("in_memory", "uvm", "dream"):
        s = DreamSystem("direct", {}, 4096, ring_bytes(w.data_bytes(), 0, 4096)) if sysname == "dream" \
            else RawSystem(sysname)
        run = Placed(s, w)
        touch = s.kernel(TOUCH, "touch") if sysname == "dream" else None
        sink = cupy.zeros(1, cupy.int32)
        sets = {"heavy": cupy.asarray(heavy), "rand": cupy.asarray(rand)}
        log, seen, pre = [], [0], [None]

        def wrapped(self, grid, block, args, *a, **kw):
            if self.name == before[kern][0]:
                if seen[0] == before[kern][1] and pre[0] is not None:
                    n = sets[pre[0]].size
                    call(touch, -(-n // 256), 256, (run["col"], sets[pre[0]], np.int64(n), sink))
                seen[0] += 1
            sync()
            t = time.perf_counter(); r = call(self, grid, block, args, *a, **kw); sync()
            log.append(f"{self.name}:{(time.perf_counter() - t) * 1e3:.1f}")
            return r
        K.Kernel.__call__ = wrapped
        modes = [("cold", None)] * 2 + [("warm", None)] if sysname == "dream" else [("cold", None)] * 2
        if sysname == "dream":
            modes += [("cold", "heavy"), ("cold", "rand"), ("cold", "heavy"), ("cold", "rand")]
        for label, which in modes:
            run.resident = label == "warm"
            w.reset(run, 0)
            if label == "cold":
                s.cold(run)
            sync(); log.clear(); seen[0] = 0; pre[0] = which
            w.launch(run, 0)
            print(f"{kern} {sysname} {label}{'+' + which if which else ''}: total {sum(float(x.split(':')[1]) for x in log):.1f} ms |",
                  " ".join(log), flush=True)
        K.Kernel.__call__ = call
        s.close()
