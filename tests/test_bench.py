"""`dream bench` without a GPU: the command lists every experiment, the
workloads' kernel sources build for dream_ptr<T> and for T *, the ratios and
result files of the harness."""
import json

import numpy as np
import pytest

from dream.bench import EXPERIMENTS
from dream.bench.harness import (DREAM_BUILD, RAW_BUILD, _summary, _warm, add_ratios, parse_backends,
                                 ring_bytes, table, write_results)


def test_list_names_every_experiment(capsys):
    from dream.cli import main
    assert main(["bench", "--list"]) == 0
    out = capsys.readouterr().out
    for name in ("transfer", "queues", "graph", "polybench", "query", "oversubscription"):
        assert name in out and name in EXPERIMENTS


@pytest.mark.parametrize("name", list(EXPERIMENTS))
def test_every_experiment_has_help(name, capsys):
    from dream.bench.cli import main
    with pytest.raises(SystemExit) as e:
        main([name, "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "--backend" in out and "--quick" in out and "--out" in out


def test_unknown_experiment_is_named(capsys):
    from dream.bench.cli import main
    assert main(["nope"]) == 2
    assert "no experiment 'nope'" in capsys.readouterr().err


def test_backend_options_parse_to_what_the_backends_take():
    got = parse_backends("direct,softrnic:queue_memory=host;engine_threads=4,nvme:queues=8", "/d")
    assert got == [("direct", {}), ("softrnic", {"queue_memory": "host", "engine_threads": 4}),
                   ("nvme", {"queues": 8, "directory": "/d"})]


@pytest.mark.parametrize("text, what", [
    ("softrnic;engine_threads=8", r"no backend 'softrnic;engine_threads=8'.*name:key=value"),
    ("direct,nvmee", r"no backend 'nvmee'"),
    ("nvme:cache", r"option 'cache' is not key=value"),
])
def test_backend_misspellings_are_named(text, what):
    from dream.runtime.errors import ConfigError
    with pytest.raises(ConfigError, match=what):
        parse_backends(text, "/d")


def test_ring_bytes():
    assert ring_bytes(100 << 20, 0, 4096) >= 100 << 20            # x = 0 holds everything
    assert ring_bytes(90 << 20, 8, 4096) == 10 << 20
    assert ring_bytes(4096, 8, 4096) == 4096                       # never below one page


@pytest.mark.parametrize("build", [DREAM_BUILD, RAW_BUILD], ids=["dream", "raw"])
def test_polybench_source_builds(build):
    from dream.bench.polybench import SOURCE
    from dream.runtime.compile import compile_source
    names = ("vadd", "rows", "cols", "rows_span")
    image, lowered = compile_source(build + SOURCE, names, "sm_90", ("DREAM_BACKEND_DIRECT",))
    assert image and set(lowered) == set(names)


def test_polybench_reference_is_what_the_suite_computes():
    from dream.bench.polybench import Matrix
    m = Matrix("bicg", 64)
    ref = m.reference()
    A = m.A.astype(np.float64)
    assert np.allclose(ref["s"], A.T @ m.inputs["r"]) and np.allclose(ref["q"], A @ m.inputs["p"])
    atax = Matrix("atax", 64)
    tmp = atax.A.astype(np.float64) @ atax.inputs["x"]
    assert np.allclose(atax.reference()["y"], atax.A.T.astype(np.float64) @ tmp)
    wrong = dict(atax.reference())
    wrong["y"] = wrong["y"].copy()
    wrong["y"][3] *= 1.01
    assert atax._wrong(wrong) == {"wrong_values": 1}
    # a span variant runs the row-wise step through a span, the same sums
    span = Matrix("bicg-span", 64)
    assert span.steps == (("cols", "r", "s"), ("rows_span", "p", "q")) and span.kernels == ("cols", "rows_span")
    assert all(np.array_equal(span.reference()[o], ref[o]) for o in ref)


def rows():
    base = {"workload": "bfs-csr", "family": "graph", "gpu": "G", "driver": "1", "data_bytes": 10}
    return [{**base, "system": "in_memory", "x": 0, "seconds": 1.0, "exact": True},
            {**base, "system": "uvm", "x": 0, "seconds": 4.0, "exact": True},
            {**base, "system": "dream", "backend": "direct", "page": 4096, "x": 0, "seconds": 2.0,
             "pages_in": 3, "exact": True},
            {**base, "system": "dream", "backend": "direct", "page": 4096, "x": 4, "seconds": 3.0,
             "pages_in": 9, "exact": True},
            {**base, "system": "uvm_rm", "x": 0, "skipped": "too big"}]


def test_ratios_are_against_baselines_of_the_same_run():
    r = add_ratios(rows())
    assert r[2]["vs_in_memory"] == 2.0 and r[2]["vs_uvm"] == 0.5 and r[2]["vs_x0"] == 1.0
    assert r[3]["vs_in_memory"] == 3.0 and r[3]["vs_x0"] == 1.5
    assert "vs_in_memory" not in r[4]


def test_resident_runs_get_their_own_ratio():
    rs = rows()
    rs[2].update(warm_seconds=0.3, warm_exact=True)
    r = add_ratios(rs)
    assert r[2]["warm_vs_in_memory"] == 0.3 and r[2]["vs_in_memory"] == 2.0
    assert "warm_vs_in_memory" not in r[3]
    assert "0.3000, 0.30" in table(r)


def test_rounds_of_each_run_are_kept():
    # a racy workload (CC's hook) may take another round in one run: the
    # table says how many the median run took, the rows list every run's
    got = _summary([{"seconds": s, "iterations": i} for s, i in ((0.4, 4), (0.2, 3), (0.3, 3))])
    assert got["iterations"] == 3 and got["all_iterations"] == [4, 3, 3]
    warm = _warm([{"seconds": s, "iterations": i} for s, i in ((0.25, 4), (0.19, 3), (0.26, 4))])
    assert warm["warm_iterations"] == 4 and warm["warm_all_iterations"] == [4, 3, 4]
    rs = rows()
    rs[2].update(iterations=4, warm_seconds=0.25, warm_exact=True, warm_iterations=3)
    t = table(add_ratios(rs))
    assert "| 2.0000 (4 rounds) |" in t and "0.2500 (3 rounds), 0.25" in t


def test_results_files(tmp_path):
    paths = write_results(add_ratios(rows()), tmp_path, "graph", {"gpu": "G", "driver": "1"})
    assert [p.name for p in paths] == ["graph.json", "graph.csv", "graph.png"]
    doc = json.loads(paths[0].read_text())
    assert doc["gpu"] == "G" and len(doc["rows"]) == 5
    csv = paths[1].read_text().splitlines()
    assert csv[0].startswith("gpu,driver,family,workload,system") and len(csv) == 6
    assert paths[2].stat().st_size > 1000
