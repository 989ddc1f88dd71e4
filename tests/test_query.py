"""The taxi queries on the CPU: the synthetic table's selectivity, dtypes,
ranges and determinism; the reference answers; reading a real table (with
pyarrow); the query kernel compiling for dream_ptr<T> and for T * (NVRTC,
no GPU needed); the workload's checking and I/O amplification."""
import numpy as np
import pytest

from dream.bench import query as Q

ROWS = 1 << 20


@pytest.fixture(scope="module")
def table():
    return Q.taxi_table(ROWS, seed=7, xp=np)


def test_selectivity_is_the_request(table):
    sel = np.count_nonzero(table["trip_seconds"] > Q.THRESHOLD)
    assert sel == round(Q.SELECTIVITY * ROWS)                  # exact by construction
    assert abs(sel / ROWS - Q.SELECTIVITY) < 0.03 * Q.SELECTIVITY
    t = Q.taxi_table(200_000, seed=3, selectivity=0.01, xp=np)
    assert np.count_nonzero(t["trip_seconds"] > 9000) == 2000
    assert np.count_nonzero(Q.taxi_table(1000, selectivity=0.0, xp=np)["trip_seconds"] > 9000) == 0


def test_selected_rows_are_spread(table):
    rows = Q.selected_rows(table)
    # at random rows: about uniform over the table, not bunched
    quarters = np.bincount(rows * 4 // ROWS, minlength=4)
    assert quarters.min() > 0.7 * rows.size / 4
    gaps = np.diff(rows)
    assert gaps.min() >= 1 and gaps.std() > 0.5 * gaps.mean()  # not a lattice
    # about 1 - (1 - s)**1024 of the 4 KiB pages of a float32 column hold one
    pages = np.unique(rows // 1024).size / (ROWS // 1024)
    assert abs(pages - (1 - (1 - Q.SELECTIVITY) ** 1024)) < 0.05


def test_dtypes_and_ranges(table):
    assert set(table) == set(Q.COLUMNS)
    for name, dtype in Q.COLUMNS.items():
        assert table[name].dtype == dtype and table[name].shape == (ROWS,)
    s = table["trip_seconds"]
    assert s.min() >= 0 and s.max() < 86400
    assert 400 < np.median(s) < 1100                              # ~12 minutes
    assert np.count_nonzero(s == Q.THRESHOLD) > 0                 # the edge of a strict >
    miles, fare = table["trip_miles"], table["fare"]
    assert miles.min() >= 0 and 1 < np.median(miles) < 5
    assert 0.05 < np.mean(miles == 0) < 0.12
    assert fare.min() >= 3.25 and np.all(fare * 4 == np.rint(fare * 4))   # quarters
    assert 8 < np.median(fare) < 16
    tips = table["tips"]
    assert 0.45 < np.mean(tips == 0) < 0.55
    paid = tips > 0
    ratio = tips[paid] / fare[paid]
    assert 0.14 < ratio.min() and ratio.max() < 0.21
    extras = table["extras"]
    assert 0.65 < np.mean(extras == 0) < 0.75 and extras.min() >= 0 and extras.max() <= 5
    tolls = table["tolls"]
    assert 0.005 < np.mean(tolls > 0) < 0.015 and tolls.max() <= 6.0
    # trips of the query: long, so longer and dearer
    sel = Q.selected_rows(table)
    assert np.median(fare[sel]) > 5 * np.median(fare)


def test_deterministic_for_a_seed_whatever_the_chunking(table):
    again = Q.taxi_table(ROWS, seed=7, xp=np, chunk_rows=300_007)
    for name in Q.COLUMNS:
        assert np.array_equal(table[name], again[name]), name
    other = Q.taxi_table(ROWS, seed=8, xp=np)
    assert not np.array_equal(table["fare"], other["fare"])
    assert not np.array_equal(Q.selected_rows(table), Q.selected_rows(other))


def test_permutation_is_a_bijection():
    for n in (1, 2, 3, 1000, 4097, 65536):
        p = Q._permute(np, np.arange(n, dtype=np.uint64), n, seed=5)
        assert np.array_equal(np.sort(p), np.arange(n, dtype=np.uint64))


def test_reference_answers(table):
    long = table["trip_seconds"] > 9000
    assert np.array_equal(Q.selected_rows(table), np.flatnonzero(long))
    for q, col in Q.QUERIES.items():
        want = float(np.sum(table[col][long], dtype=np.float64))
        got, scale = Q.reference(table, col)
        assert got == pytest.approx(want, rel=1e-12)
        assert scale >= abs(got)
        # plain Python over the selected rows, another order
        assert got == pytest.approx(sum(float(v) for v in table[col][long]), rel=1e-9)
    assert Q.reference(table, "trip_miles")[0] > 0 and Q.reference(table, "fare")[0] > 0


def test_check_tolerance():
    assert Q.wrong(100.0 + 5e-8, 100.0, 100.0) == 0
    assert Q.wrong(100.0 + 1e-6, 100.0, 100.0) == 1
    assert Q.wrong(0.0, 0.0, 0.0) == 0 and Q.wrong(1e-300, 0.0, 0.0) == 1
    assert Q.wrong(float("nan"), 1.0, 1.0) == 1


class FakeRun:
    """What TaxiQuery needs of harness.Placed, on the host."""

    def __init__(self, w):
        self.w = w
        self.arrays = {k: a.data.copy() for k, a in w.arrays().items()}
        self.k = {Q.KERNEL: self.kernel}

    def __getitem__(self, name):
        return self.arrays[name]

    def set(self, name, data):
        self.arrays[name][...] = data

    def get(self, name):
        return self.arrays[name].copy()

    def kernel(self, grid, block, args):
        secs, vals, n, thr, out = args
        assert grid * block >= int(n) and block == Q.BLOCK
        assert isinstance(n, np.uint64) and isinstance(thr, np.int32)
        vals = vals[:int(n)][secs[:int(n)] > thr].astype(np.float64)
        rng = np.random.default_rng(0)
        out[0] += float(np.sum(vals[rng.permutation(vals.size)]))   # another order


def test_workload_checks_and_amplification(table):
    cols = Q.Columns(table)
    for q, col in Q.QUERIES.items():
        w = Q.TaxiQuery(q, cols)
        arrays = w.arrays()
        assert arrays["secs"].big and arrays["vals"].big and not arrays["out"].big
        assert arrays["secs"].read_only and arrays["vals"].read_only
        assert w.data_bytes() == 8 * ROWS
        run = FakeRun(w)
        for i in range(2):
            w.reset(run, i)
            assert w.launch(run, i) == {}
            assert w.errors(run, i) == {"wrong_sum": 0}
        run.arrays["out"][0] += 1e-3 * max(1.0, abs(w.want))
        assert w.errors(run, 0) == {"wrong_sum": 1}
        d = w.describe()
        assert d["query"] == q and d["column"] == col and d["rows"] == ROWS
        assert d["selected"] == round(Q.SELECTIVITY * ROWS)
        needed = 4 * ROWS + 4 * d["selected"]
        assert d["bytes_needed"] == needed
        assert w.derive({"seconds": 1.0}) == {}
        assert w.derive({"bytes_in": 8 * ROWS})["io_amplification"] == pytest.approx(
            8 * ROWS / needed)
    assert Q.TaxiQuery("q1", cols).chunked_label == "column copy + CuPy (RAPIDS-style)"
    with pytest.raises(ValueError):
        Q.TaxiQuery("q6", cols)


def test_parse_rows():
    assert Q.parse_rows("256M") == 256 << 20 and Q.parse_rows("4m") == 4 << 20
    assert Q.parse_rows(1000) == 1000 and Q.parse_rows("1G") == 1 << 30
    with pytest.raises(ValueError):
        Q.parse_rows("lots")


def test_arguments():
    import argparse
    p = argparse.ArgumentParser()
    Q.add_arguments(p)
    a = p.parse_args([])
    assert a.backend == "direct" and a.oversubscription == "0,1,4,8" and a.page == "4KiB"
    assert a.runs == 3 and a.rows is None and a.selectivity == Q.SELECTIVITY
    assert a.table is None and a.queries == "q1,q2,q3,q4,q5"


def dataset_frame(pa):
    # the City of Chicago's names, nulls, and a money column as strings
    return pa.table({
        "Trip ID": ["a", "b", "c", "d"],
        "Trip Seconds": pa.array([600, None, 9001, 12000], pa.int64()),
        "Trip Miles": [1.5, 0.0, None, 40.25],
        "Fare": ["$7.25", "$3.25", "$1,234.50", None],
        "Tips": [1.0, 0.0, None, 9.5],
        "Tolls": [0.0, None, 0.0, 2.5],
        "Extras": [0.0, 1.0, 4.0, None],
    })


def check_read(t):
    assert set(t) == set(Q.COLUMNS)
    for name, dtype in Q.COLUMNS.items():
        assert t[name].dtype == dtype and t[name].size == 4
    assert t["trip_seconds"].tolist() == [600, 0, 9001, 12000]
    assert t["trip_miles"].tolist() == [1.5, 0.0, 0.0, 40.25]
    assert t["fare"].tolist() == [7.25, 3.25, 1234.5, 0.0]
    assert t["tips"].tolist() == [1.0, 0.0, 0.0, 9.5]
    assert t["tolls"].tolist() == [0.0, 0.0, 0.0, 2.5]
    assert t["extras"].tolist() == [0.0, 1.0, 4.0, 0.0]
    assert Q.selected_rows(t).tolist() == [2, 3]
    assert Q.reference(t, "fare")[0] == 1234.5


def test_read_table_parquet(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "taxi.parquet"
    pq.write_table(dataset_frame(pa), path)
    check_read(Q.read_table(path))
    assert Q.read_table(path, rows=2)["trip_seconds"].tolist() == [600, 0]


def test_read_table_csv_and_snake_case(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pcsv = pytest.importorskip("pyarrow.csv")
    path = tmp_path / "taxi.csv"
    pcsv.write_csv(dataset_frame(pa), path)
    check_read(Q.read_table(path))
    pq = pytest.importorskip("pyarrow.parquet")
    snake = dataset_frame(pa).rename_columns(
        ["trip_id", "trip_seconds", "trip_miles", "fare", "tips", "tolls", "extras"])
    pq.write_table(snake, tmp_path / "snake.parquet")
    check_read(Q.read_table(tmp_path / "snake.parquet"))
    pq.write_table(dataset_frame(pa).drop_columns(["Tolls"]), tmp_path / "bad.parquet")
    with pytest.raises(ValueError, match="Tolls"):
        Q.read_table(tmp_path / "bad.parquet")


def test_read_table_without_pyarrow(tmp_path, monkeypatch):
    import builtins
    real = builtins.__import__

    def no_pyarrow(name, *a, **k):
        if name == "pyarrow" or name.startswith("pyarrow."):
            raise ImportError("no pyarrow here")
        return real(name, *a, **k)
    monkeypatch.setattr(builtins, "__import__", no_pyarrow)
    with pytest.raises(ImportError, match="pip install pyarrow"):
        Q.read_table(tmp_path / "taxi.parquet")


@pytest.mark.parametrize("build", ["dream", "raw"])
def test_one_source_builds_dream_and_raw(build):
    # the same kernel text against dream_ptr<T> and against T *__restrict__
    # (compiles without a GPU: NVRTC for sm_90)
    from dream.bench.harness import DREAM_BUILD, RAW_BUILD
    from dream.runtime.compile import compile_source
    prefix = DREAM_BUILD if build == "dream" else RAW_BUILD
    image, lowered = compile_source(prefix + Q.SOURCE, (Q.KERNEL,), "sm_90",
                                    ("DREAM_BACKEND_DIRECT",), (), "query.cu")
    assert image[:4] == b"\x7fELF" and lowered == {Q.KERNEL: Q.KERNEL}
