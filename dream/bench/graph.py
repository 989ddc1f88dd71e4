"""Graph workloads as public suites write them (GAP, Gardenia), DREAM Fig. 9
and 12: level-synchronous top-down BFS (plain stores to dist and parent),
Shiloach-Vishkin connected components (hook with atomic min, then shortcut)
and SSSP (data-driven Bellman-Ford: relax the edges of the vertices whose
distance fell last round, atomic min), each over CSR (a thread per vertex)
and Balanced CSR (Fig. 10: a thread per chunk of at most --chunk edges, so
a high-degree vertex is spread over many threads and a warp's lanes read
adjacent edges). Every array is big (a dream array, or the baseline's memory
system). Results are checked exactly against SciPy (scipy.sparse.csgraph);
BFS and SSSP take a different source vertex each run, the same sources for
every system. The chunked baseline streams the edge list through device
memory in windows (item lists and per-vertex arrays resident), as an
out-of-core GPU graph code does without UVM.

    dream bench graph --graph kron --scale 22 --backend direct,softrnic
    dream bench graph --graph path/to/graph.mtx --kernels bfs,sssp --layouts bcsr
"""
from __future__ import annotations

import time

import numpy as np

from .graphs import Graph, balanced, kronecker, load, uniform, weights
from .harness import Array, Workload

BLOCK = 256
INF = np.iinfo(np.int32).max

# ITEMS: the CSR build walks vertex v's list rowptr[v]..rowptr[v + 1]; the
# Balanced CSR build walks chunk c's cstart[c]..cstart[c + 1] of vertex cvert[c].
# Both take a window of the edge list (WINDOW): items lo_..n - 1 and edges
# ebase_..eend_ - 1, col[] holding that window (k counts from ebase_). The
# dream and in-memory runs pass the whole list; the chunked baseline streams
# the edges through device memory a window at a time (a vertex whose list
# spans windows is walked in parts, which BFS, CC and SSSP allow).
CSR = r'''
#define ITEMS(v, first, end) \
    for (unsigned long long v = lo_ + blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; \
         v < n; v += (unsigned long long)gridDim.x * blockDim.x) { \
        const int first = max(rowptr[v], ebase_) - ebase_, end = min(rowptr[v + 1], eend_) - ebase_;
#define LIST ARR(int) rowptr
'''
BCSR = r'''
#define ITEMS(v, first, end) \
    for (unsigned long long c_ = lo_ + blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; \
         c_ < n; c_ += (unsigned long long)gridDim.x * blockDim.x) { \
        const int v = cvert[c_], first = max(cstart[c_], ebase_) - ebase_, \
                  end = min(cstart[c_ + 1], eend_) - ebase_;
#define LIST ARR(int) cvert, ARR(int) cstart
'''

KERNELS = r'''
#define WINDOW unsigned long long lo_, int ebase_, int eend_

extern "C" __global__ void bfs_step(LIST, WINDOW, ARR(int) col, ARR(int) dist, ARR(int) parent,
                                    int level, unsigned long long n, int *changed) {
    ITEMS(v, first, end)
        if (dist[v] != level) continue;
        for (int k = first; k < end; k++) {
            const int u = col[k];
            if (dist[u] < 0) {
                dist[u] = level + 1;
                parent[u] = (int)v;
                *changed = 1;
            }
        }
    }
}

extern "C" __global__ void cc_hook(LIST, WINDOW, ARR(int) col, ARR(int) comp, unsigned long long n,
                                   int *changed) {
    ITEMS(v, first, end)
        for (int k = first; k < end; k++) {
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

extern "C" __global__ void cc_shortcut(ARR(int) comp, unsigned long long nv) {
    for (unsigned long long v = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         v < nv; v += (unsigned long long)gridDim.x * blockDim.x) {
        int c = comp[v];
        for (int cc = comp[c]; cc != c; cc = comp[c]) {
            comp[v] = cc;
            c = cc;
        }
    }
}

/* a vertex whose distance fell in round r is relaxed in round r + 1: a
   lowering after its thread read active[v] sets it again for the next round */
extern "C" __global__ void sssp_step(LIST, WINDOW, ARR(int) col, ARR(int) w, ARR(int) dist,
                                     ARR(int) active, int round, unsigned long long n,
                                     int *changed) {
    ITEMS(v, first, end)
        if (active[v] != round) continue;
        const int dv = dist[v];
        for (int k = first; k < end; k++) {
            const int u = col[k], nd = dv + w[k];
            if (nd < dist[u] && ATOMIC_MIN(dist, u, nd) > nd) {
                active[u] = round + 1;
                *changed = 1;
            }
        }
    }
}'''

KERNEL_NAMES = {"bfs": ("bfs_step",), "cc": ("cc_hook", "cc_shortcut"), "sssp": ("sssp_step",)}


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


def sssp_reference(g: Graph, w: np.ndarray, source: int) -> np.ndarray:
    """Shortest distances by SciPy's Dijkstra (INF: unreached)."""
    import scipy.sparse as sp
    from scipy.sparse.csgraph import dijkstra
    m = sp.csr_matrix((w.astype(np.float64), g.col, g.rowptr), shape=(g.n, g.n))
    d = dijkstra(m, directed=True, indices=source)
    return np.where(np.isinf(d), INF, d).astype(np.int32)


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


class Refs:
    """A graph's references and the pinned copies of its edge arrays (the
    chunked baseline's source), made once and shared by its workloads."""

    def __init__(self, g: Graph, w: np.ndarray | None):
        self.g, self.w = g, w
        self._cache: dict = {}
        self._pinned: dict = {}

    def pinned(self, name: str):
        """col or w in pinned host memory."""
        if name not in self._pinned:
            from .harness import pinned_copy
            self._pinned[name] = pinned_copy(self.g.col if name == "col" else self.w)
        return self._pinned[name]

    def get(self, kernel: str, source: int) -> np.ndarray:
        key = (kernel, None if kernel == "cc" else source)
        if key not in self._cache:
            self._cache[key] = (cc_reference(self.g) if kernel == "cc" else
                                bfs_reference(self.g, source) if kernel == "bfs" else
                                sssp_reference(self.g, self.w, source))
        return self._cache[key]


# -- workloads ----------------------------------------------------------------

class GraphWorkload(Workload):
    """One kernel (bfs, cc, sssp) over one layout (csr, bcsr) of a graph."""
    family = "graph"

    def __init__(self, g: Graph, kernel: str, layout: str, refs: Refs, chunk: int = 32,
                 bcsr: tuple | None = None):
        import cupy
        self.g, self.kernel, self.layout, self.refs, self.chunk = g, kernel, layout, refs, chunk
        self.name = f"{kernel}-{layout}"
        self.source = (CSR if layout == "csr" else BCSR) + KERNELS
        self.kernels = KERNEL_NAMES[kernel]
        if layout == "bcsr":
            self.cvert, self.cstart = bcsr or balanced(g, chunk)
        self.items = g.n if layout == "csr" else self.cvert.size
        self.changed = cupy.zeros(1, np.int32)

    def describe(self):
        d = {"graph": self.g.name, "vertices": self.g.n, "edges": self.g.m}
        if self.layout == "bcsr":
            d.update(chunk=self.chunk, chunks=int(self.cvert.size))
        return d

    def arrays(self):
        g = self.g
        lists = ({"rowptr": Array(g.rowptr)} if self.layout == "csr" else
                 {"cvert": Array(self.cvert), "cstart": Array(self.cstart)})
        a = {**lists, "col": Array(g.col)}
        out = lambda: Array(np.zeros(g.n, np.int32), read_only=False)  # noqa: E731
        if self.kernel == "bfs":
            a.update(dist=out(), parent=out())
        elif self.kernel == "cc":
            a.update(comp=out())
        else:
            a.update(w=Array(self.refs.w), dist=out(), active=out())
        return a

    def source_of(self, i: int) -> int:
        return pick_source(self.g, i + 1)

    def reset(self, run, i):
        n, s = self.g.n, self.source_of(i)
        if self.kernel == "cc":
            run.set("comp", np.arange(n, dtype=np.int32))
            return
        dist = np.full(n, -1 if self.kernel == "bfs" else INF, np.int32)
        dist[s] = 0
        run.set("dist", dist)
        other = np.full(n, -1, np.int32)
        other[s] = s if self.kernel == "bfs" else 0   # parent of the source / active in round 0
        run.set("parent" if self.kernel == "bfs" else "active", other)

    def starts(self) -> np.ndarray:
        """Where each item's edges start in col, and the end of the last."""
        return self.g.rowptr if self.layout == "csr" else self.cstart

    def _rounds(self, k, a, i, windows, bring=None) -> dict:
        """Rounds until nothing changes; each round runs the step kernel
        over every window (lo, hi, ebase, eend) of the edge list in turn,
        after bring(j) for window j when given. `a` maps array names to
        kernel arguments."""
        lists = (a["rowptr"],) if self.layout == "csr" else (a["cvert"], a["cstart"])
        it = 0
        while True:
            self.changed.fill(0)
            for j, (lo, hi, eb, ee) in enumerate(windows):
                if bring is not None:
                    bring(j)
                grid = max(1, -(-(hi - lo) // BLOCK))
                win = (*lists, np.uint64(lo), np.int32(eb), np.int32(ee))
                if self.kernel == "bfs":
                    k["bfs_step"](grid, BLOCK, (*win, a["col"], a["dist"], a["parent"],
                                                np.int32(it), np.uint64(hi), self.changed))
                elif self.kernel == "sssp":
                    k["sssp_step"](grid, BLOCK, (*win, a["col"], a["w"], a["dist"], a["active"],
                                                 np.int32(it), np.uint64(hi), self.changed))
                else:
                    k["cc_hook"](grid, BLOCK, (*win, a["col"], a["comp"], np.uint64(hi),
                                               self.changed))
            if self.kernel == "cc":
                k["cc_shortcut"](max(1, -(-self.g.n // BLOCK)), BLOCK, (a["comp"], np.uint64(self.g.n)))
            it += 1
            if int(self.changed.get()[0]) == 0:
                return {"iterations": it, "source": None if self.kernel == "cc" else self.source_of(i)}

    def launch(self, run, i):
        return self._rounds(run.k, run, i, [(0, self.items, 0, self.g.m)])

    chunked_label = "edge windows streamed"

    def chunked(self, gpu_bytes, i, rt_raw):
        """Edge-list streaming (manual partitioning): the item lists and the
        per-vertex arrays resident in device memory, the rest of the budget
        a window of col (and w) that each round fills in turn from pinned
        memory, then runs the step kernel over the items of that window. One
        window (x = 0): the edges are copied once. No overlap of copy and
        compute, no skipping of windows without active vertices."""
        import cupy
        from .harness import RAW_BUILD
        g = self.g
        parts = {n: a for n, a in self.arrays().items() if n not in ("col", "w")}
        per_edge = 8 if self.kernel == "sssp" else 4
        resident = sum(a.data.nbytes for a in parts.values())
        cap = min(g.m, (gpu_bytes - resident) // per_edge)
        if cap < 1:
            return (f"skipped: the resident item and vertex arrays ({resident:,} bytes) leave "
                    f"no room for edges in {gpu_bytes:,} bytes")
        windows = edge_windows(self.starts(), cap)
        host = [self.refs.pinned("col")] + ([self.refs.pinned("w")] if self.kernel == "sssp" else [])
        bufs = [cupy.empty(cap, np.int32) for _ in host]
        k = {name: rt_raw.kernel(RAW_BUILD + self.source, name) for name in self.kernels}
        copied = 0

        def bring(j):
            nonlocal copied
            _, _, eb, ee = windows[j]
            for src, dst in zip(host, bufs):
                cupy.cuda.runtime.memcpy(dst.data.ptr, src.host_ptr + 4 * eb, 4 * (ee - eb), 1)
                copied += 4 * (ee - eb)

        placed = _Start({n: a.data for n, a in parts.items()})
        self.reset(placed, i)
        t = time.perf_counter()
        dev = {n: cupy.asarray(v) for n, v in placed.data.items()}
        dev["col"] = bufs[0]
        if self.kernel == "sssp":
            dev["w"] = bufs[1]
        if len(windows) == 1:
            bring(0)
            extra = self._rounds(k, dev, i, windows)
        else:
            extra = self._rounds(k, dev, i, windows, bring)
        seconds = time.perf_counter() - t
        got = {n: v.get() for n, v in dev.items() if n not in ("col", "w")}
        return seconds, {**extra, "windows": len(windows), "bytes_in": copied}, self.errors(got, i)

    def errors(self, run, i):
        s = self.source_of(i)
        ref = self.refs.get(self.kernel, s)
        if self.kernel == "bfs":
            return bfs_errors(self.g, s, ref, run.get("dist"), run.get("parent"))
        if self.kernel == "cc":
            return {"wrong_label": int(np.count_nonzero(run.get("comp") != ref))}
        return {"wrong_dist": int(np.count_nonzero(run.get("dist") != ref))}


def edge_windows(starts: np.ndarray, cap: int) -> list[tuple[int, int, int, int]]:
    """The edge list cut into windows of `cap` edges: (lo, hi, ebase, eend),
    items lo..hi - 1 being those whose edges starts[i]..starts[i + 1] - 1
    meet edges ebase..eend - 1 (items without edges may be left out)."""
    starts = np.asarray(starts, np.int64)
    m = int(starts[-1])
    out = []
    for eb in range(0, m, cap):
        ee = min(m, eb + cap)
        out.append((int(np.searchsorted(starts[1:], eb, "right")),
                    int(np.searchsorted(starts[:-1], ee, "left")), eb, ee))
    return out or [(0, 0, 0, 0)]


class _Start:
    """The start values of a chunked run's resident arrays (reset() writes
    them through set(), as it does on a Placed workload)."""

    def __init__(self, data: dict):
        self.data = {n: np.array(v) for n, v in data.items()}

    def set(self, name, value):
        self.data[name] = np.asarray(value)


def make_graph(spec: str, scale: int, edge_factor: int, seed: int) -> Graph:
    if spec == "kron":
        return kronecker(scale, edge_factor, seed)
    if spec == "urand":
        return uniform(scale, edge_factor, seed)
    return load(spec)


def workloads(g: Graph, kernels, layouts, chunk: int = 32, seed: int = 1):
    """Every kernel x layout on graph g, sharing its references."""
    refs = Refs(g, weights(g, seed) if "sssp" in kernels else None)
    bcsr = balanced(g, chunk) if "bcsr" in layouts else None
    for layout in layouts:
        for kernel in kernels:
            yield GraphWorkload(g, kernel, layout, refs, chunk, bcsr)


def add_arguments(p):
    from .cli import common_arguments
    common_arguments(p)
    p.add_argument("--graph", default="kron",
                   help="kron, urand (generated: --scale, --edge-factor, --seed) or a .mtx / "
                   "edge-list file, comma-separated")
    p.add_argument("--scale", type=int, default=None, help="log2 vertices (default 22; --quick 14)")
    p.add_argument("--edge-factor", type=int, default=16)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--kernels", default="bfs,cc,sssp")
    p.add_argument("--layouts", default="csr,bcsr")
    p.add_argument("--chunk", type=int, default=32, help="Balanced CSR: edges per chunk")


def run(args) -> int:
    from .cli import plan_from
    from .harness import run_experiment
    plan = plan_from(args)
    kernels, layouts = args.kernels.split(","), args.layouts.split(",")
    for k in kernels:
        if k not in KERNEL_NAMES:
            raise SystemExit(f"--kernels: no kernel {k!r}; there are {', '.join(KERNEL_NAMES)}")
    for lay in layouts:
        if lay not in ("csr", "bcsr"):
            raise SystemExit(f"--layouts: no layout {lay!r}; there are csr, bcsr")
    scale = args.scale or (14 if args.quick else 22)
    specs = args.graph.split(",")

    def all_workloads():
        for spec in specs:
            t = time.perf_counter()
            g = make_graph(spec, scale, args.edge_factor, args.seed)
            print(f"{g.name}: {g.n:,} vertices, {g.m:,} directed edges "
                  f"({time.perf_counter() - t:.1f} s)", flush=True)
            yield from workloads(g, kernels, layouts, args.chunk, args.seed)
    return run_experiment("graph", all_workloads(), len(specs) * len(kernels) * len(layouts), plan)
