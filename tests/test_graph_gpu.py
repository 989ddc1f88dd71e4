"""BFS and CC over CSR and Balanced CSR (dream.bench.graph) on every
backend, exact against SciPy, with the frame ring holding all the data and
a fifth of it. The scale-22 runs of the correctness issue use the same code:
dream bench graph --scale 22 --kernels bfs,cc --layouts csr --systems dream."""
import pytest

from backends import BACKENDS
from dream.bench.graphs import kronecker

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def graph():
    return kronecker(14, 16, seed=2)


@pytest.mark.timeout(240)
@pytest.mark.parametrize("spec", BACKENDS)
def test_bfs_cc_exact(spec, graph, tmp_path):
    from backends import usable
    from dream.bench.graph import workloads
    from dream.bench.harness import Plan, run_workload
    name, options = usable(spec, tmp_path)
    plan = Plan(backends=[(name, options)], xs=[0, 4], pages=[4096], runs=1, systems=("dream",),
                out=tmp_path)
    rows = [r for w in workloads(graph, ["bfs", "cc"], ["csr", "bcsr"])
            for r in run_workload(w, plan, log=lambda s: None)]
    assert len(rows) == 8 and all(r.get("exact") for r in rows), rows
    assert all(r["evictions"] > 0 for r in rows if r["x"] == 4)
