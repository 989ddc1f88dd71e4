"""BFS and CC (dream.bench.graph) on every backend, exact against SciPy,
with the frame ring holding all the data and a fifth of it. The scale-22
runs of the correctness issue use the same code: python -m dream.bench.graph."""
import pytest

from backends import BACKENDS
from dream.bench.graph import check
from dream.bench.graphs import kronecker

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def graph():
    return kronecker(14, 16, seed=2)


@pytest.mark.timeout(240)
@pytest.mark.parametrize("spec", [b.values[0] for b in BACKENDS], ids=[b.id for b in BACKENDS])
def test_bfs_cc_exact(spec, graph, tmp_path):
    from backends import runtime_factory
    name, options = spec
    runtime_factory(spec, tmp_path)  # skips when the backend cannot run here
    if name == "nvme":
        options = {**options, "directory": str(tmp_path)}
    rows = check(name, options, graph, [0, 4], 1, ["bfs", "cc"])
    assert all(r["exact"] for r in rows), [r for r in rows if not r["exact"]]
    assert all(r["evictions"] > 0 for r in rows if r["x"] == 4)
