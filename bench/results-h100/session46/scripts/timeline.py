"""Session 46: where a cold graph launch's time goes, thread by thread. BFS's
third and fourth launches and CC's first hook (Kronecker 22, direct, x = 0,
4 KiB pages), on plain device memory, UVM first touch, and dream cold and
warm, each thread stamping %globaltimer when it starts its vertex and when it
is done with it. Printed: the launch's time, the quantiles of when threads
finish, the longest walks with their degrees, and blocks' durations by
position in the grid (early blocks meet a cold ring).

argv[1]: systems (default in_memory,uvm,dream), argv[2]: dream's modes
(default cold,cold,warm), argv[3]: kernels (default bfs,cc; cc2: CC's hook
reading comp[v] through a copy of comp, whose hint is its own); DREAM_INC: a
variant include directory."""
import os
import sys
import time
from pathlib import Path
import cupy
import dream.runtime.compile as C
import numpy as np
from dream.bench.graph import CSR, KERNELS, BLOCK, make_graph, workloads
from dream.bench.harness import DreamSystem, Placed, RawSystem, ring_bytes

TIMED = r'''
__device__ __forceinline__ unsigned long long now_() {
    unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
extern "C" __global__ void bfs_t(LIST, WINDOW, ARR(int) col, ARR(int) dist, ARR(int) parent,
                                 int level, unsigned long long n, int *changed,
                                 unsigned long long *t0, unsigned long long *t1) {
    ITEMS(v, first, end)
        t0[v] = now_();
        if (dist[v] == level) {
            for (int k = first; k < end; k++) {
                const int u = col[k];
                if (dist[u] < 0) {
                    dist[u] = level + 1;
                    parent[u] = (int)v;
                    *changed = 1;
                }
            }
        }
        t1[v] = now_();
    }
}
extern "C" __global__ void cc_t(LIST, WINDOW, ARR(int) col, ARR(int) comp, unsigned long long n,
                                int *changed, unsigned long long *t0, unsigned long long *t1) {
    ITEMS(v, first, end)
        t0[v] = now_();
        for (int k = first; k < end; k++) {
            const int cv = comp[v], cu = comp[col[k]];
            if (cv == cu) continue;
            const int hi = cv > cu ? cv : cu, lo = cv + cu - hi;
            if (comp[hi] == hi) {
                ATOMIC_MIN(comp, hi, lo);
                *changed = 1;
            }
        }
        t1[v] = now_();
    }
}
extern "C" __global__ void cc2_t(LIST, WINDOW, ARR(int) col, ARR(int) comp, unsigned long long n,
                                 int *changed, unsigned long long *t0, unsigned long long *t1) {
    ITEMS(v, first, end)
        t0[v] = now_();
        ARR(int) own = comp; /* a copy: comp[v]'s own hint (a dream_ptr keeps one) */
        for (int k = first; k < end; k++) {
            const int cv = own[v], cu = comp[col[k]];
            if (cv == cu) continue;
            const int hi = cv > cu ? cv : cu, lo = cv + cu - hi;
            if (comp[hi] == hi) {
                ATOMIC_MIN(comp, hi, lo);
                *changed = 1;
            }
        }
        t1[v] = now_();
    }
}'''

if os.environ.get("DREAM_INC"):
    C.INCLUDE_DIR = Path(os.environ["DREAM_INC"]).resolve()
WANT = (sys.argv[1] if len(sys.argv) > 1 else "in_memory,uvm,dream").split(",")
DREAM_MODES = tuple((sys.argv[2] if len(sys.argv) > 2 else "cold,cold,warm").split(","))
TAG = os.environ.get("TAG", "")
KERNS = (sys.argv[3] if len(sys.argv) > 3 else "bfs,cc").split(",")
g = make_graph("kron", 22, 16, 1)
deg = g.degree
sync = cupy.cuda.Device().synchronize
t0 = cupy.zeros(g.n, np.uint64)
t1 = cupy.zeros(g.n, np.uint64)
changed = cupy.zeros(1, np.int32)


def report(label, ms, active):
    a, b = t0.get()[active], t1.get()[active]
    base = a.min()
    fin = (b - base) / 1e6
    d = (b - a) / 1e6
    q = np.quantile(fin, [0.5, 0.9, 0.99, 0.999, 1.0])
    idx = np.flatnonzero(active)
    top = np.argsort(d)[-3:][::-1]
    print(f"{label}: {ms:.2f} ms host, threads {idx.size}, finished by (ms) p50 {q[0]:.2f} p90 {q[1]:.2f} "
          f"p99 {q[2]:.2f} p99.9 {q[3]:.2f} max {q[4]:.2f}; longest "
          + ", ".join(f"v{idx[i]} deg {deg[idx[i]]} {d[i]:.2f} ms" for i in top), flush=True)
    blk = idx // BLOCK
    ub, inv = np.unique(blk, return_inverse=True)
    bs = np.full(ub.size, np.inf); be = np.zeros(ub.size)
    np.minimum.at(bs, inv, (a - base) / 1e6); np.maximum.at(be, inv, fin)
    dur = be - bs
    parts = np.array_split(np.arange(ub.size), 8)
    print("   blocks by grid position, mean ms (start..end, duration): "
          + " | ".join(f"{bs[p].mean():.1f}..{be[p].mean():.1f} {dur[p].mean():.3f}" for p in parts)
          + f"; blocks at once {dur.sum() / fin.max():.0f}", flush=True)


def timed(k, grid, args):
    sync()
    t = time.perf_counter(); k(grid, BLOCK, args); sync()
    return (time.perf_counter() - t) * 1e3


for kern in KERNS:
    w = next(workloads(g, [kern.rstrip("2")], ["csr"]))
    src = CSR + KERNELS + TIMED
    systems = [("in_memory", lambda: RawSystem("in_memory")), ("uvm", lambda: RawSystem("uvm")),
               ("dream", lambda: DreamSystem("direct", {}, 4096, ring_bytes(w.data_bytes(), 0, 4096)))]
    for name, make in systems:
        if name not in WANT:
            continue
        s = make()
        run = Placed(s, w)
        kt = s.kernel(src, f"{kern}_t")
        kb = s.kernel(src, "bfs_step") if kern == "bfs" else None
        grid = -(-g.n // BLOCK)
        modes = DREAM_MODES if name == "dream" else ("cold", "cold")
        for mode in modes:
            run.resident = mode == "warm"
            w.reset(run, 0)
            if mode == "cold":
                s.cold(run)
            win = (run["rowptr"], np.uint64(0), np.int32(0), np.int32(g.m))
            if kern.startswith("cc"):
                ms = timed(kt, grid, (*win, run["col"], run["comp"], np.uint64(g.n), changed, t0, t1))
                report(f"{TAG}{name} {kern} hook 1 {mode}", ms, np.ones(g.n, bool))
                continue
            dref = w.refs.get("bfs", w.source_of(0))
            for it in range(4):
                args = (*win, run["col"], run["dist"], run["parent"], np.int32(it), np.uint64(g.n), changed)
                if it < 2:
                    kb(grid, BLOCK, args)
                else:
                    ms = timed(kt, grid, (*args, t0, t1))
                    report(f"{TAG}{name} bfs launch {it + 1} {mode}", ms, dref == it)
        s.close()
