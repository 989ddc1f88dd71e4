"""Graph workloads over CSR, as public suites write them (GAP, Gardenia):
level-synchronous top-down BFS (plain stores to dist and parent) and
Shiloach-Vishkin connected components (hook with atomic min, then
shortcut). Every array is a dream array; results are checked exactly against
SciPy (scipy.sparse.csgraph).

One kernel source serves dream and plain device memory: ARR(T) is
dream_ptr<T> in the dream build and T * in the raw one.

    python -m dream.bench.graph --scale 22 --backends direct,softrnic \\
        --oversubscription 0,1,4,8 --runs 3 --out results/
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from .graphs import Graph, kronecker

BFS = r'''
extern "C" __global__ void bfs_step(ARR(int) rowptr, ARR(int) col, ARR(int) dist,
                                    ARR(int) parent, int level, unsigned long long n,
                                    int *changed) {
    for (unsigned long long v = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         v < n; v += (unsigned long long)gridDim.x * blockDim.x) {
        if (dist[v] != level) continue;
        const int end = rowptr[v + 1];
        for (int k = rowptr[v]; k < end; k++) {
            const int u = col[k];
            if (dist[u] < 0) {
                dist[u] = level + 1;
                parent[u] = (int)v;
                *changed = 1;
            }
        }
    }
}'''

CC = r'''
extern "C" __global__ void cc_hook(ARR(int) rowptr, ARR(int) col, ARR(int) comp,
                                   unsigned long long n, int *changed) {
    for (unsigned long long v = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         v < n; v += (unsigned long long)gridDim.x * blockDim.x) {
        const int end = rowptr[v + 1];
        for (int k = rowptr[v]; k < end; k++) {
            const int cv = comp[v], cu = comp[col[k]];
            if (cv == cu) continue;
            const int hi = cv > cu ? cv : cu, lo = cv + cu - hi;
            if (comp[hi] == hi) {
                ATOMIC_MIN(comp, hi, lo);
                *changed = 1;
            }
        }
    }
}

extern "C" __global__ void cc_shortcut(ARR(int) comp, unsigned long long n) {
    for (unsigned long long v = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         v < n; v += (unsigned long long)gridDim.x * blockDim.x) {
        int c = comp[v];
        for (int cc = comp[c]; cc != c; cc = comp[c]) {
            comp[v] = cc;
            c = cc;
        }
    }
}'''

DREAM_BUILD = "#define ARR(T) dream_ptr<T>\n#define ATOMIC_MIN(a, i, v) (a).atomic_min(i, v)\n"
RAW_BUILD = "#define ARR(T) T *\n#define ATOMIC_MIN(a, i, v) atomicMin(&(a)[i], v)\n"

BLOCK = 256


# -- references ---------------------------------------------------------------

def bfs_reference(g: Graph, source: int) -> np.ndarray:
    """BFS levels from SciPy's breadth-first order (-1: unreached)."""
    from scipy.sparse.csgraph import breadth_first_order
    order, pred = breadth_first_order(g.scipy(), source, directed=True, return_predecessors=True)
    dist = np.full(g.n, -1, np.int32)
    dist[source] = 0
    rest = order[1:]
    while True:  # each pass settles one more level (preds come earlier in the order)
        new = np.where(dist[pred[rest]] >= 0, dist[pred[rest]] + 1, -1).astype(np.int32)
        if np.array_equal(new, dist[rest]):
            return dist
        dist[rest] = new


def cc_reference(g: Graph) -> np.ndarray:
    """Each vertex's label = the smallest vertex id of its component (what
    min-hooking SV converges to), from SciPy's connected components."""
    from scipy.sparse.csgraph import connected_components
    _, labels = connected_components(g.scipy(), directed=True, connection="weak")
    smallest = np.full(labels.max() + 1, g.n, np.int64)
    np.minimum.at(smallest, labels, np.arange(g.n))
    return smallest[labels].astype(np.int32)


def bfs_errors(g: Graph, source: int, ref: np.ndarray, dist: np.ndarray, parent: np.ndarray) -> dict:
    """Wrong distances, and reached vertices whose parent is not a neighbour
    one level up."""
    reached = np.flatnonzero((ref > 0) & (dist == ref))
    p = parent[reached]
    ok = (p >= 0) & (p < g.n)
    ok[ok] &= ref[p[ok]] == ref[reached[ok]] - 1
    ok[ok] &= g.has_edges(p[ok], reached[ok])
    return {"wrong_dist": int(np.count_nonzero(dist != ref)),
            "wrong_parent": int(np.count_nonzero(~ok)) + int(parent[source] != source)}


def pick_source(g: Graph, seed: int = 1) -> int:
    """A vertex with neighbours, the same for a graph and seed everywhere."""
    cand = np.flatnonzero(g.degree > 0)
    return int(cand[(seed * 2654435761) % cand.size])


# -- runs ---------------------------------------------------------------------

class GraphRun:
    """A graph's CSR in dream arrays of runtime `rt`, with BFS and CC."""

    def __init__(self, rt, g: Graph, grid: int | None = None):
        import cupy
        self.rt, self.g = rt, g
        self.rowptr = rt.array(g.rowptr, name="rowptr")
        self.col = rt.array(g.col, name="col")
        self.dist = rt.zeros(g.n, np.int32, name="dist")
        self.parent = rt.zeros(g.n, np.int32, name="parent")
        self.comp = rt.zeros(g.n, np.int32, name="comp")
        self.bfs_k = rt.kernel(DREAM_BUILD + BFS, "bfs_step")
        self.hook = rt.kernel(DREAM_BUILD + CC, "cc_hook")
        self.shortcut = rt.kernel(DREAM_BUILD + CC, "cc_shortcut")
        self.grid = grid or max(1, self.bfs_k.resident_threads((1 << 30, 1, 1), (BLOCK, 1, 1)) // BLOCK)
        self.changed = cupy.zeros(1, np.int32)

    @staticmethod
    def data_bytes(g: Graph) -> int:
        """What BFS or CC keeps in dream arrays (the larger set, BFS's)."""
        return g.rowptr.nbytes + g.col.nbytes + 2 * 4 * g.n

    def _until_stable(self, step) -> int:
        it = 0
        while True:
            self.changed.fill(0)
            step(it)
            it += 1
            if int(self.changed.get()[0]) == 0:
                return it

    def bfs(self, source: int) -> dict:
        dist = np.full(self.g.n, -1, np.int32)
        dist[source] = 0
        parent = np.full(self.g.n, -1, np.int32)
        parent[source] = source
        self.dist.copy_from(dist)
        self.parent.copy_from(parent)
        n = np.uint64(self.g.n)
        self.rt.evict()
        self.rt.reset_stats()
        t = time.perf_counter()
        levels = self._until_stable(lambda lvl: self.bfs_k(
            self.grid, BLOCK, (self.rowptr, self.col, self.dist, self.parent, np.int32(lvl), n,
                               self.changed)))
        seconds = time.perf_counter() - t
        return {"seconds": seconds, "iterations": levels, "stats": self.rt.stats().as_dict(),
                "dist": self.dist.to_numpy(), "parent": self.parent.to_numpy()}

    def cc(self) -> dict:
        self.comp.copy_from(np.arange(self.g.n, dtype=np.int32))
        n = np.uint64(self.g.n)
        self.rt.evict()
        self.rt.reset_stats()
        t = time.perf_counter()

        def step(_):
            self.hook(self.grid, BLOCK, (self.rowptr, self.col, self.comp, n, self.changed))
            self.shortcut(self.grid, BLOCK, (self.comp, n))
        rounds = self._until_stable(step)
        seconds = time.perf_counter() - t
        return {"seconds": seconds, "iterations": rounds, "stats": self.rt.stats().as_dict(),
                "comp": self.comp.to_numpy()}


def ring_bytes(data: int, x: int, page: int) -> int:
    """Frame ring for oversubscription x: data / (1 + x), whole pages; x = 0
    holds all the data (each array's last page may be partial)."""
    if x == 0:
        return -(-data // page) * page + 8 * page
    return max(page, data // (1 + x) // page * page)


def check(backend: str, options: dict, g: Graph, xs, runs: int, kernels, page: int = 4096,
          source: int | None = None, refs: dict | None = None, log=print) -> list[dict]:
    """Runs each kernel `runs` times at each oversubscription on `backend`,
    each run from an empty ring, and checks every result exactly."""
    import dream
    source = pick_source(g) if source is None else source
    refs = refs if refs is not None else {}
    if "bfs" in kernels and "bfs" not in refs:
        refs["bfs"] = bfs_reference(g, source)
    if "cc" in kernels and "cc" not in refs:
        refs["cc"] = cc_reference(g)
    data = GraphRun.data_bytes(g)
    out = []
    for x in xs:
        ring = ring_bytes(data, x, page)
        with dream.Runtime(backend=backend, page_size=page, gpu_memory=ring, **options) as rt:
            run = GraphRun(rt, g)
            for kernel in kernels:
                for i in range(runs):
                    if kernel == "bfs":
                        r = run.bfs(source)
                        errors = bfs_errors(g, source, refs["bfs"], r.pop("dist"), r.pop("parent"))
                    else:
                        r = run.cc()
                        errors = {"wrong_label": int(np.count_nonzero(r.pop("comp") != refs["cc"]))}
                    row = {"graph": g.name, "n": g.n, "m": g.m, "backend": backend, "options": options,
                           "kernel": kernel, "x": x, "run": i, "ring_bytes": ring, "data_bytes": data,
                           "grid": run.grid, "block": BLOCK, "exact": not any(errors.values()),
                           **errors, "seconds": round(r["seconds"], 3), "iterations": r["iterations"],
                           "pages_in": r["stats"]["pages_in"], "evictions": r["stats"]["evictions"],
                           "writebacks": r["stats"]["writebacks"]}
                    log(json.dumps(row))
                    out.append(row)
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m dream.bench.graph", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scale", type=int, default=22)
    p.add_argument("--edge-factor", type=int, default=16)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--backends", default="direct", help="comma-separated; softrnic:host for host queues")
    p.add_argument("--oversubscription", default="0,1,4,8")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--kernels", default="bfs,cc")
    p.add_argument("--out", default=None, help="directory for graph.json")
    a = p.parse_args(argv)
    t = time.perf_counter()
    g = kronecker(a.scale, a.edge_factor, a.seed)
    print(f"{g.name}: {g.n:,} vertices, {g.m:,} directed edges, generated in "
          f"{time.perf_counter() - t:.1f} s", flush=True)
    refs: dict = {}
    rows = []
    for spec in a.backends.split(","):
        name, _, qm = spec.partition(":")
        opts = {"queue_memory": qm} if qm else {}
        rows += check(name, opts, g, [int(x) for x in a.oversubscription.split(",")], a.runs,
                      a.kernels.split(","), refs=refs, log=lambda s: print(s, flush=True))
    if a.out:
        Path(a.out).mkdir(parents=True, exist_ok=True)
        (Path(a.out) / "graph.json").write_text(json.dumps(rows, indent=1))
    bad = [r for r in rows if not r["exact"]]
    print(f"{len(rows) - len(bad)}/{len(rows)} runs exact")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
