"""Graph inputs and references (CPU): the generators' CSR invariants, and the
SciPy-based references against a plain Python BFS and union-find."""
from collections import deque

import numpy as np
import pytest

from dream.bench.graph import bfs_errors, bfs_reference, cc_reference, pick_source
from dream.bench.graphs import kronecker, uniform


@pytest.fixture(scope="module", params=["kron", "urand"])
def g(request):
    make = kronecker if request.param == "kron" else uniform
    return make(10, 8, seed=3, xp=np)


def test_csr_is_symmetric_sorted_simple(g):
    assert g.rowptr.dtype == np.int32 and g.col.dtype == np.int32
    assert g.rowptr[0] == 0 and g.rowptr[-1] == g.m and np.all(np.diff(g.rowptr) >= 0)
    row = np.repeat(np.arange(g.n), g.degree)
    assert np.all(row != g.col)                                  # no self loops
    keys = row.astype(np.int64) << 32 | g.col
    assert np.all(np.diff(keys) > 0)                             # sorted, no duplicates
    assert np.all(g.has_edges(g.col, row))                       # symmetric
    assert not g.has_edges(np.array([0]), np.array([0]))[0]


def test_generators_are_deterministic():
    a, b = kronecker(9, 4, seed=5, xp=np), kronecker(9, 4, seed=5, xp=np)
    assert np.array_equal(a.rowptr, b.rowptr) and np.array_equal(a.col, b.col)
    assert not np.array_equal(a.col, kronecker(9, 4, seed=6, xp=np).col)


def test_kronecker_is_skewed():
    g = kronecker(12, 16, xp=np)
    assert g.degree.max() > 20 * g.degree.mean()                 # a power-law head


def adjacency(g):
    return [g.col[g.rowptr[v]:g.rowptr[v + 1]] for v in range(g.n)]


def test_bfs_reference(g):
    s = pick_source(g)
    adj, dist = adjacency(g), np.full(g.n, -1)
    dist[s] = 0
    q = deque([s])
    while q:
        v = q.popleft()
        for u in adj[v]:
            if dist[u] < 0:
                dist[u] = dist[v] + 1
                q.append(u)
    ref = bfs_reference(g, s)
    assert np.array_equal(ref, dist)
    # a parent array that is right passes, one wrong entry is caught
    parent = np.full(g.n, -1, np.int32)
    parent[s] = s
    for v in np.flatnonzero(dist > 0):
        parent[v] = next(u for u in adj[v] if dist[u] == dist[v] - 1)
    assert bfs_errors(g, s, ref, ref, parent) == {"wrong_dist": 0, "wrong_parent": 0}
    far = int(np.flatnonzero(dist > 1)[0])
    parent[far] = s
    bad_dist = ref.copy()
    bad_dist[far] += 1
    assert bfs_errors(g, s, ref, bad_dist, parent) == {"wrong_dist": 1, "wrong_parent": 0}
    assert bfs_errors(g, s, ref, ref, parent)["wrong_parent"] == 1


def test_cc_reference(g):
    label = list(range(g.n))

    def find(x):
        while label[x] != x:
            label[x] = label[label[x]]
            x = label[x]
        return x
    for v, nbrs in enumerate(adjacency(g)):
        for u in nbrs:
            a, b = find(v), find(int(u))
            label[max(a, b)] = min(a, b)
    want = np.array([find(v) for v in range(g.n)])
    assert np.array_equal(cc_reference(g), want)


def test_sssp_reference_and_weights(g):
    import heapq
    from dream.bench.graph import sssp_reference
    from dream.bench.graphs import weights
    w = weights(g, seed=2)
    assert w.dtype == np.int32 and w.min() >= 1 and w.max() <= 64
    row = np.repeat(np.arange(g.n), g.degree)
    back = {(int(u), int(v)): int(x) for u, v, x in zip(row, g.col, w)}
    assert all(back[(v, u)] == x for (u, v), x in back.items())      # undirected weights
    s = pick_source(g)
    dist = {s: 0}
    heap = [(0, s)]
    while heap:
        d, v = heapq.heappop(heap)
        if d > dist[v]:
            continue
        for k in range(g.rowptr[v], g.rowptr[v + 1]):
            u, nd = int(g.col[k]), d + int(w[k])
            if nd < dist.get(u, 1 << 40):
                dist[u] = nd
                heapq.heappush(heap, (nd, u))
    want = np.full(g.n, np.iinfo(np.int32).max, np.int32)
    want[list(dist)] = list(dist.values())
    assert np.array_equal(sssp_reference(g, w, s), want)


@pytest.mark.parametrize("chunk", [1, 3, 32])
def test_balanced_csr_covers_each_list_in_chunks(g, chunk):
    from dream.bench.graphs import balanced
    vert, start = balanced(g, chunk)
    assert start[0] == 0 and start[-1] == g.m and start.size == vert.size + 1
    size = np.diff(start)
    assert np.all(size >= 1) and np.all(size <= chunk)
    # chunk c lies inside its vertex's list, and the chunks of v count ceil(deg / chunk)
    assert np.all(g.rowptr[vert] <= start[:-1]) and np.all(start[1:] <= g.rowptr[vert + 1])
    assert np.array_equal(np.bincount(vert, minlength=g.n), -(-g.degree // chunk))


def test_load_matrix_market_and_edge_list(tmp_path):
    import scipy.io
    import scipy.sparse as sp
    from dream.bench.graphs import load
    u = np.array([0, 1, 2, 2, 4])
    v = np.array([1, 2, 0, 3, 4])          # a self loop (4, 4) is dropped
    scipy.io.mmwrite(str(tmp_path / "g.mtx"), sp.coo_matrix((np.ones(5), (u, v)), shape=(5, 5)))
    (tmp_path / "g.el").write_text("# comment\n" + "".join(f"{a} {b}\n" for a, b in zip(u, v)))
    for name in ("g.mtx", "g.el"):
        g = load(tmp_path / name)
        assert g.n == 5 and g.m == 8
        assert list(g.col[g.rowptr[2]:g.rowptr[3]]) == [0, 1, 3]
        assert (tmp_path / f"{name}.col.npy").exists()
        again = load(tmp_path / name)                        # from the .npy cache
        assert np.array_equal(again.col, g.col)
    with pytest.raises(FileNotFoundError, match="nope.mtx"):
        load(tmp_path / "nope.mtx")


@pytest.mark.parametrize("layout", ["csr", "bcsr"])
@pytest.mark.parametrize("build", ["dream", "raw"])
def test_one_source_builds_dream_and_raw(build, layout):
    # the same kernel text against dream_ptr<T> and against T *, over CSR and
    # Balanced CSR (compiles without a GPU: NVRTC for sm_90)
    from dream.bench.graph import BCSR, CSR, KERNEL_NAMES, KERNELS
    from dream.bench.harness import DREAM_BUILD, RAW_BUILD
    from dream.runtime.compile import compile_source
    prefix = (DREAM_BUILD if build == "dream" else RAW_BUILD) + (CSR if layout == "csr" else BCSR)
    names = tuple(n for k in KERNEL_NAMES.values() for n in k)
    image, lowered = compile_source(prefix + KERNELS, names, "sm_90", ("DREAM_BACKEND_DIRECT",))
    assert image and set(lowered) == set(names)


@pytest.mark.parametrize("cap", [3, 7, 300, 10**9])
@pytest.mark.parametrize("layout", ["csr", "bcsr"])
def test_edge_windows_cover_every_edge_once(g, cap, layout):
    """The chunked baseline's windows: each edge in exactly one window, and
    each item with an edge in a window among that window's items."""
    from dream.bench.graph import edge_windows
    from dream.bench.graphs import balanced
    starts = g.rowptr if layout == "csr" else balanced(g, 5)[1]
    wins = edge_windows(starts, cap)
    seen = np.zeros(g.m, np.int64)
    for lo, hi, eb, ee in wins:
        assert 0 < ee - eb <= cap and 0 <= lo <= hi <= starts.size - 1
        # the kernel's clipped walk of each item
        first, end = np.maximum(starts[:-1], eb), np.minimum(starts[1:], ee)
        walks = np.flatnonzero(first < end)
        assert np.all((lo <= walks) & (walks < hi)), (walks, lo, hi)
        seen[eb:ee] += 1
        assert np.sum(end[walks] - first[walks]) == ee - eb
    assert np.all(seen == 1)
    assert [w[2] for w in wins] == list(range(0, g.m, cap))
