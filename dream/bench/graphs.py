"""Graph inputs: Graph500/GAP-style Kronecker (R-MAT, A=0.57, B=C=0.19) and
uniform-random generators, made symmetric, without self loops or duplicate
edges, as CSR with int32 row offsets and int32 columns (sorted per row).

Generated with CuPy on the GPU when one is usable (a scale-22 graph in a few
seconds), else with NumPy; the two draw different graphs for one seed."""
from __future__ import annotations

from dataclasses import dataclass

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


def _draw(xp, seed: int, stream: int, n: int):
    """n random uint64 of stream `stream` of generator `seed`."""
    with np.errstate(over="ignore"):
        base = mix(xp, xp.asarray([seed * 1_000_003 + stream], dtype=xp.uint64))
        return mix(xp, xp.arange(n, dtype=xp.uint64) ^ base)


def _below(bits, p: float):
    """True with probability p, from the high 32 bits of uniform uint64 draws."""
    return (bits >> 32) < int(p * (1 << 32))


def _xp():
    from ..runtime.cuda import gpu_status
    if gpu_status(0)[0] is not None:
        import cupy
        return cupy
    return np


def kronecker(scale: int, edge_factor: int = 16, seed: int = 1, xp=None) -> Graph:
    """2**scale vertices, edge_factor * 2**scale edges drawn by R-MAT
    recursion, vertex ids permuted at random (Graph500)."""
    xp = xp or _xp()
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
    xp = xp or _xp()
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
