"""Every experiment of `dream bench` at tiny sizes: each workload on every
backend (frame ring holding all the data, and a fifth of it) and on every
baseline, results checked exactly; and each experiment's command end to end
(--quick) with its JSON, CSV and PNG."""
import json

import pytest

from backends import BACKENDS

pytestmark = pytest.mark.gpu


def tiny_workloads():
    from dream.bench import graph, polybench, query
    g = graph.kronecker(10, 8, 3)
    yield from graph.workloads(g, ["bfs", "cc", "sssp"], ["csr", "bcsr"], chunk=8)
    yield from polybench.workloads(["atax", "mvt", "bicg", "vadd"], 256, 1 << 16)
    yield from query.workloads_for(1 << 18, ["q1", "q5"])


@pytest.mark.timeout(600)
@pytest.mark.parametrize("spec", BACKENDS)
def test_every_workload_exact_on_every_system(spec, tmp_path):
    from backends import usable
    from dream.bench.harness import SYSTEMS, Plan, run_workload
    name, options = usable(spec, tmp_path)
    first = name == "direct" and options == {}   # baselines once, with the first backend
    plan = Plan(backends=[(name, options)], xs=[0, 4], pages=[4096], runs=1,
                systems=SYSTEMS if first else ("dream",), out=tmp_path)
    rows = [r for w in tiny_workloads() for r in run_workload(w, plan, log=lambda s: None)]
    failed = [(r["workload"], r["x"], r.get("error") or {k: v for k, v in r.items() if k.startswith("wrong_")})
              for r in rows if "error" in r or r.get("exact") is False]
    assert not failed, failed
    dream = [r for r in rows if r["system"] == "dream"]
    assert len(dream) == 2 * 12 and all(r["exact"] for r in dream)
    # x = 0 also ran with every page resident (resets written through the ring), exactly
    assert all(r["warm_exact"] and r["warm_seconds"] > 0 for r in dream if r["x"] == 0)
    assert all(r["warm_pages_in"] == 0 for r in dream if r["x"] == 0), \
        [(r["workload"], r["warm_pages_in"]) for r in dream if r["x"] == 0]
    assert all(r["evictions"] > 0 for r in dream if r["x"] == 4), \
        [(r["workload"], r["evictions"]) for r in dream if r["x"] == 4]
    if first:
        for system in ("in_memory", "uvm", "uvm_rm"):
            assert sum(r["system"] == system and r["exact"] for r in rows) == 12, system
        # every workload has a chunked baseline; a graph's may not fit its
        # vertex arrays in a tiny budget, and says so
        chunked = [r for r in rows if r["system"] == "chunked"]
        assert len(chunked) == 2 * 12, chunked
        ran = [r for r in chunked if "skipped" not in r]
        assert all(r["exact"] for r in ran), ran
        assert all(r["family"] == "graph" and "no room" in r["skipped"]
                   for r in chunked if "skipped" in r), chunked
        assert any(r["family"] == "graph" and r["windows"] > 1 for r in ran), ran
        assert all(r["vs_in_memory"] > 0 for r in dream)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("spec", BACKENDS)
def test_span_variants_exact_while_frames_outnumber_threads(spec, tmp_path):
    # a thread per row holds a span's pin: at x = 2 the ring (5,461 frames)
    # still outnumbers the 4,096 threads and pages are evicted; at x = 4
    # (3,276 frames) the run is refused with the reason, before any launch
    from backends import usable
    from dream.bench import polybench
    from dream.bench.harness import Plan, run_workload
    name, options = usable(spec, tmp_path)
    plan = Plan(backends=[(name, options)], xs=[0, 2, 4], pages=[4096], runs=1,
                systems=("dream",), out=tmp_path)
    for w in polybench.workloads(["atax-span", "mvt-span", "bicg-span"], 4096, 0):
        by_x = {r["x"]: r for r in run_workload(w, plan, log=lambda s: None)}
        assert by_x[0]["exact"] and by_x[0]["warm_exact"] and by_x[0]["warm_pages_in"] == 0, by_x[0]
        assert by_x[2]["exact"] and by_x[2]["evictions"] > 0, by_x[2]
        assert "a span pins a page per thread (4096 threads); the ring has 3276 frames" in by_x[4]["error"]


@pytest.mark.timeout(600)
@pytest.mark.parametrize("argv", [
    ["graph", "--scale", "10", "--kernels", "bfs,sssp"],
    ["polybench", "--n", "256", "--vadd-n", "65536"],
    ["query", "--rows", "262144", "--queries", "q2"],
    ["oversubscription", "--oversubscription", "0,2", "--workloads", "cc,mvt,query"],
    ["transfer", "--data", "64MiB", "--backend", "direct,softrnic"],
    ["queues", "--data", "64MiB", "--queues", "1,4"],
], ids=lambda a: a[0])
def test_experiment_command(argv, tmp_path):
    from dream.bench.cli import main
    assert main(argv + ["--quick", "--runs", "1", "--out", str(tmp_path)]) == 0
    name = argv[0]
    assert (tmp_path / f"{name}.json").exists() and (tmp_path / f"{name}.png").exists()
    doc = json.loads((tmp_path / f"{name}.json").read_text())
    assert doc["gpu"]                                   # every result file names its device
