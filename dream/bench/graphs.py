"""Graph inputs: Graph500/GAP-style Kronecker (R-MAT, A=0.57, B=C=0.19) and
uniform-random generators, and real graphs from Matrix Market or edge-list
files (cached as .npy beside them), made symmetric, without self loops or
duplicate edges, as CSR with int32 row offsets and int32 columns (sorted per
row); edge weights for SSSP; Balanced CSR (DREAM Fig. 10).

Generated with CuPy on the GPU when one is usable (a scale-22 graph in a few
seconds), else with NumPy: the same graph for a seed either way (draws are
splitmix64 of their index)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

A, B, C = 0.57, 0.19, 0.19


@dataclass
class Graph:
    name: str
    rowptr: np.ndarray   # int32, n + 1
    col: np.ndarray      # int32, m (both directions of every edge)

    @property
    def n(self) -> int:
        return self.rowptr.size - 1

    @property
    def m(self) -> int:
        return self.col.size

    @property
    def degree(self) -> np.ndarray:
        return np.diff(self.rowptr)

    def scipy(self):
        """The graph as a SciPy CSR matrix (for scipy.sparse.csgraph)."""
        import scipy.sparse as sp
        return sp.csr_matrix((np.ones(self.m, np.int8), self.col, self.rowptr),
                             shape=(self.n, self.n))

    def has_edges(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Whether each (u[i], v[i]) is an edge: a binary search of v in each
        row (columns are sorted per row), vectorised over the pairs."""
        lo = self.rowptr[u].astype(np.int64)
        end = self.rowptr[u + 1].astype(np.int64)
        hi = end.copy()
        while (active := lo < hi).any():
            mid = (lo + hi) // 2
            right = active & (self.col[np.minimum(mid, self.m - 1)] < v)
            lo = np.where(right, mid + 1, lo)
            hi = np.where(active & ~right, mid, hi)
        return (lo < end) & (self.col[np.minimum(lo, self.m - 1)] == v)


def mix(xp, z):
    """splitmix64 of a uint64 array: a bijection, so distinct inputs never
    collide. Random draws are mix(seed, stream, index): the same numbers with
    NumPy and CuPy, so a seed names one graph on any machine."""
    z = z + xp.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> xp.uint64(30))) * xp.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> xp.uint64(27))) * xp.uint64(0x94D049BB133111EB)
    return z ^ (z >> xp.uint64(31))


def draw(xp, seed: int, stream: int, idx):
    """Random uint64 number idx (a uint64 array) of stream `stream` of
    generator `seed`: the same for an index however the draws are chunked."""
    with np.errstate(over="ignore"):
        base = mix(xp, xp.asarray([(seed * 1_000_003 + stream) % (1 << 64)], dtype=xp.uint64))
        return mix(xp, idx ^ base)


def _draw(xp, seed: int, stream: int, n: int):
    """The first n draws of stream `stream` of generator `seed`."""
    return draw(xp, seed, stream, xp.arange(n, dtype=xp.uint64))


def _below(bits, p: float):
    """True with probability p, from the high 32 bits of uniform uint64 draws."""
    return (bits >> 32) < int(p * (1 << 32))


def array_module():
    """CuPy when a GPU is usable, else NumPy: where inputs are generated."""
    from ..runtime.cuda import gpu_status
    if gpu_status(0)[0] is not None:
        import cupy
        return cupy
    return np


def kronecker(scale: int, edge_factor: int = 16, seed: int = 1, xp=None) -> Graph:
    """2**scale vertices, edge_factor * 2**scale edges drawn by R-MAT
    recursion, vertex ids permuted at random (Graph500)."""
    xp = xp or array_module()
    n, m = 1 << scale, edge_factor << scale
    u = xp.zeros(m, xp.int64)
    v = xp.zeros(m, xp.int64)
    with np.errstate(over="ignore"):
        for bit in range(scale):
            src = ~_below(_draw(xp, seed, 2 * bit, m), A + B)
            d = _draw(xp, seed, 2 * bit + 1, m)
            dst = xp.where(src, ~_below(d, C / (1 - A - B)), ~_below(d, A / (A + B)))
            u |= src.astype(xp.int64) << bit
            v |= dst.astype(xp.int64) << bit
            del src, dst, d
        perm = xp.argsort(_draw(xp, seed, 1000, n)).astype(xp.int64)
    return _csr(xp, perm[u], perm[v], n, f"kron{scale}-{edge_factor}-s{seed}")


def uniform(scale: int, edge_factor: int = 16, seed: int = 1, xp=None) -> Graph:
    """2**scale vertices, edge_factor * 2**scale edges with uniform endpoints."""
    xp = xp or array_module()
    n, m = 1 << scale, edge_factor << scale
    with np.errstate(over="ignore"):
        u = (_draw(xp, seed, 0, m) >> xp.uint64(64 - scale)).astype(xp.int64)
        v = (_draw(xp, seed, 1, m) >> xp.uint64(64 - scale)).astype(xp.int64)
    return _csr(xp, u, v, n, f"urand{scale}-{edge_factor}-s{seed}")


def _csr(xp, u, v, n: int, name: str) -> Graph:
    keep = u != v
    u, v = u[keep], v[keep]
    keys = xp.concatenate([(u << 32) | v, (v << 32) | u])
    del u, v, keep
    keys = xp.unique(keys)   # sorted: by row, then column
    if keys.size >= 1 << 31:
        raise ValueError(f"{name}: {keys.size:,} directed edges do not fit int32 row offsets")
    row = (keys >> 32).astype(xp.int32)
    col = (keys & 0xFFFFFFFF).astype(xp.int32)
    del keys
    rowptr = xp.zeros(n + 1, xp.int32)
    rowptr[1:] = xp.cumsum(xp.bincount(row, minlength=n)).astype(xp.int32)
    if xp is not np:
        rowptr, col = rowptr.get(), col.get()
        xp.get_default_memory_pool().free_all_blocks()
    return Graph(name, rowptr, col)


def weights(g: Graph, seed: int = 1) -> np.ndarray:
    """int32 edge weights in 1..64, one per CSR entry, equal for (u, v) and
    (v, u): a hash of the unordered pair, so SSSP on the symmetric graph is
    the undirected problem."""
    u = np.repeat(np.arange(g.n, dtype=np.uint64), g.degree)
    v = g.col.astype(np.uint64)
    key = (np.minimum(u, v) << np.uint64(32)) | np.maximum(u, v)
    with np.errstate(over="ignore"):
        h = mix(np, key ^ np.uint64(seed * 0x2545F4914F6CDD1D))
    return (1 + (h >> np.uint64(58))).astype(np.int32)


def balanced(g: Graph, chunk: int) -> tuple[np.ndarray, np.ndarray]:
    """Balanced CSR: every neighbour list cut into chunks of at most `chunk`
    edges. Returns (vertex of each chunk, start of each chunk in col, with
    the end of the last as a final entry); chunk c covers
    col[start[c]:start[c + 1]], in CSR's order, so col itself is unchanged."""
    if chunk < 1:
        raise ValueError(f"balanced CSR: chunk={chunk} must be at least 1 edge")
    deg = g.degree.astype(np.int64)
    per = -(-deg // chunk)
    vert = np.repeat(np.arange(g.n, dtype=np.int32), per)
    first = np.repeat(np.cumsum(per) - per, per)
    start = g.rowptr[:-1].astype(np.int64)[vert] + (np.arange(vert.size) - first) * chunk
    return vert, np.append(start, g.m).astype(np.int32)


def load(path, cache_dir=None) -> Graph:
    """A real graph from a Matrix Market file (.mtx, via scipy.io) or an edge
    list (two vertex ids per line, '#' or '%' comments; ids as given, from
    0), made symmetric; cached as <name>.rowptr.npy / .col.npy in
    `cache_dir` (default: beside the file) and read from there next time."""
    path = Path(path)
    cache = Path(cache_dir) if cache_dir else path.parent
    rp, cp = cache / f"{path.name}.rowptr.npy", cache / f"{path.name}.col.npy"
    if rp.exists() and cp.exists() and rp.stat().st_mtime >= path.stat().st_mtime:
        return Graph(path.stem, np.load(rp), np.load(cp))
    if not path.exists():
        raise FileNotFoundError(f"graph file {str(path)!r} does not exist")
    if path.suffix == ".mtx":
        import scipy.io
        m = scipy.io.mmread(str(path)).tocoo()
        if m.shape[0] != m.shape[1]:
            raise ValueError(f"{path}: a graph needs a square matrix, this one is {m.shape}")
        u, v, n = m.row.astype(np.int64), m.col.astype(np.int64), m.shape[0]
    else:
        e = np.loadtxt(path, comments=("#", "%"), usecols=(0, 1), dtype=np.int64, ndmin=2)
        if e.size and e.min() < 0:
            raise ValueError(f"{path}: negative vertex id {int(e.min())}")
        u, v = e[:, 0], e[:, 1]
        n = int(e.max()) + 1 if e.size else 0
    g = _csr(np, u, v, n, path.stem)
    cache.mkdir(parents=True, exist_ok=True)
    np.save(rp, g.rowptr)
    np.save(cp, g.col)
    return g
