"""The Chicago-taxi queries of DREAM's query evaluation (ICS '25, section
5.5, Figure 15): "the average dollar per mile a driver makes in trips that
take longer than 9000 seconds", as five scans over a trip table, each one sum
over the trips with trip_seconds > 9000:

  q1  total trip_miles     q2  total fare     q3  total extras
  q4  total tips           q5  total tolls

The table is synthetic (taxi_table: the dataset's distributions, 0.08 % of
the trips longer than 9000 s, at random rows; deterministic for a seed) or a
real Chicago Taxi Trips file (--table, Parquet or CSV, read with pyarrow).

Each query is one kernel over two big arrays, trip_seconds (int32) and the
query's column (float32): one thread per row (blocks of 256, grid-stride),
which reads trip_seconds[i] and only when it is > 9000 reads the value; sums
in double, a warp reduction with __shfl_down_sync, then one atomicAdd per
warp. Under dream every page of trip_seconds is loaded but only the pages of
the value column that hold a selected row: at 0.08 % and 4 KiB pages (1024
rows a page) about 56 % of them. That is the point of the figure.

Systems (dream/bench/harness.py): dream on each backend at each
oversubscription x (ring = the two columns / (1 + x), every run cold);
in-memory (the columns already in device memory); UVM first touch and UVM
read-mostly; and the RAPIDS-style baseline ("column copy + CuPy"): both
columns copied from pinned host memory to device memory, whole when they fit
in the ring's budget, else in chunks of at most that many bytes in all, then
`vals[secs > 9000].sum(dtype=float64)` per chunk with CuPy; its time
includes the copies.

Every answer is checked against a float64 NumPy sum of the selected values
(the set of selected rows is known on the host), with a relative tolerance
of 1e-9 of the sum of their magnitudes (GPU additions run in another order).

I/O amplification (column io_amplification) = bytes moved to the GPU /
bytes the answer needs, where the answer needs the whole trip_seconds column
plus 4 bytes per selected row (the values that are summed). Bytes moved: the
runtime's bytes_in for dream (whole pages), the bytes copied for the
column-copy baseline (both whole columns: about 2); not given
for in-memory (nothing moves) or UVM (no counter here).

    dream bench query --backend direct,softrnic --oversubscription 0,1,4,8
    dream bench query --quick                    # 4 M rows: seconds
    dream bench query --table taxi_trips.parquet --queries q1,q2
"""
from __future__ import annotations

import time

import numpy as np

from . import harness
from .graphs import array_module, draw, mix

THRESHOLD = 9000          # seconds: the queries' predicate is trip_seconds > THRESHOLD
BLOCK = 256
SELECTIVITY = 0.0008      # the paper's 0.08 %
DEFAULT_ROWS = 256 << 20  # two columns of one query = 2 GiB
QUICK_ROWS = 4 << 20

COLUMNS = {"trip_seconds": np.int32, "trip_miles": np.float32, "fare": np.float32,
           "extras": np.float32, "tips": np.float32, "tolls": np.float32}
QUERIES = {"q1": "trip_miles", "q2": "fare", "q3": "extras", "q4": "tips", "q5": "tolls"}
# names in the City of Chicago's export (and their snake_case in other copies)
DATASET_NAMES = {"trip_seconds": "Trip Seconds", "trip_miles": "Trip Miles", "fare": "Fare",
                 "extras": "Extras", "tips": "Tips", "tolls": "Tolls"}

SOURCE = r'''
extern "C" __global__ void taxi_sum(ARR(int) secs, ARR(float) vals, unsigned long long n,
                                    int threshold, double *out) {
    double s = 0.0;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x) {
        const int t = secs[i];
        if (t > threshold) {
            const float v = vals[i];     // only the selected rows' pages are read
            s += (double)v;
        }
    }
    // every lane of the warp is here (blocks are whole warps; a lane that a
    // timed-out dream access ended has exited, and the run has failed anyway).
    // Not __activemask(): after the divergent loop the lanes need not have
    // reconverged yet, and a partial mask drops their sums.
    for (int off = 16; off > 0; off >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, off);
    if ((threadIdx.x & 31) == 0 && s != 0.0)
        atomicAdd(out, s);
}'''
KERNEL = "taxi_sum"


# -- the synthetic table --------------------------------------------------------

def _uniform(xp, seed, stream, idx):
    """Uniform float64 in (0, 1]."""
    return ((draw(xp, seed, stream, idx) >> xp.uint64(11)) + xp.uint64(1)).astype(xp.float64) \
        * (1.0 / (1 << 53))


def _normal(xp, seed, stream, idx):
    """Standard normal (Box-Muller over streams `stream` and `stream` + 1)."""
    u1, u2 = _uniform(xp, seed, stream, idx), _uniform(xp, seed, stream + 1, idx)
    return xp.sqrt(-2.0 * xp.log(u1)) * xp.cos(2.0 * np.pi * u2)


def _permute(xp, idx, n: int, seed: int):
    """A pseudo-random permutation of [0, n) at rows `idx`: a 4-round Feistel
    network on the smallest even number of bits that holds n, cycle-walked
    into [0, n). Integer only: identical on NumPy and CuPy."""
    bits = max(2, (n - 1).bit_length())
    bits += bits & 1
    half = xp.uint64(bits // 2)
    mask = xp.uint64((1 << (bits // 2)) - 1)
    keys = [draw(np, seed, 100 + r, np.zeros(1, np.uint64))[0] for r in range(4)]

    def feistel(x):
        left, right = x >> half, x & mask
        for k in keys:
            left, right = right, left ^ (mix(xp, right ^ xp.uint64(k)) & mask)
        return (left << half) | right

    x = feistel(idx)
    while True:
        out = x >= xp.uint64(n)
        if not bool(out.any()):
            return x
        x[out] = feistel(x[out])


def _cents(xp, v):
    return xp.rint(v * 100.0) / 100.0


def _chunk(xp, a: int, b: int, rows: int, n_long: int, seed: int) -> dict:
    """Rows [a, b) of the table, as arrays of xp."""
    idx = xp.arange(a, b, dtype=xp.uint64)
    long = _permute(xp, idx, rows, seed) < xp.uint64(n_long)
    # trip_seconds: log-normal around 12 minutes, at most 9000 s (some exactly
    # 9000: the predicate is strict); the selected trips 9001 s + ~50 min tail
    short = xp.rint(xp.exp(np.log(720.0) + 0.75 * _normal(xp, seed, 1, idx)))
    short = xp.clip(short, 0.0, float(THRESHOLD))
    tail = 9001.0 + xp.minimum(xp.rint(-3000.0 * xp.log(_uniform(xp, seed, 3, idx))), 77398.0)
    secs = xp.where(long, tail, short)
    del short, tail
    # miles = speed (log-normal, ~11 mph) * hours; 8 % of the trips record 0
    speed = xp.exp(np.log(11.0) + 0.45 * _normal(xp, seed, 4, idx))
    zero = _uniform(xp, seed, 6, idx) < 0.08
    miles = xp.where(zero, 0.0, _cents(xp, speed * secs / 3600.0))
    del speed, zero
    # fare: $3.25 flag fall, $2.25 a mile, $0.20 a 36 s of waiting (a fifth of
    # the time), noise; in quarters, at least the flag fall
    fare = 3.25 + 2.25 * miles + 0.20 * (0.2 * secs / 36.0) + 0.5 * _normal(xp, seed, 7, idx)
    fare = xp.maximum(3.25, xp.rint(fare * 4.0) / 4.0)
    # tips: none for half of the trips (cash), else 15-20 % of the fare
    u = _uniform(xp, seed, 9, idx)
    tips = xp.where(u < 0.5, 0.0, _cents(xp, fare * (0.15 + 0.05 * (u - 0.5) * 2.0)))
    # extras: 0 for 70 %, else $0.50 .. $5 (airport, extra passengers, ...)
    kind = draw(xp, seed, 10, idx)
    amounts = xp.asarray([0.5, 1.0, 1.0, 1.5, 2.0, 2.0, 4.0, 5.0])
    extras = xp.where(_uniform(xp, seed, 11, idx) < 0.7, 0.0,
                      amounts[(kind >> xp.uint64(61)).astype(xp.int64)])
    # tolls: rare, $0.50 .. $6
    u = _uniform(xp, seed, 12, idx)
    tolls = xp.where(u < 0.99, 0.0, _cents(xp, 0.5 + 550.0 * (u - 0.99)))
    return {"trip_seconds": secs.astype(xp.int32), "trip_miles": miles.astype(xp.float32),
            "fare": fare.astype(xp.float32), "extras": extras.astype(xp.float32),
            "tips": tips.astype(xp.float32), "tolls": tolls.astype(xp.float32)}


def taxi_table(rows: int, seed: int = 1, selectivity: float = SELECTIVITY, xp=None,
               chunk_rows: int = 1 << 24) -> dict:
    """A synthetic Chicago-taxi table of `rows` trips: {column: NumPy array}
    (COLUMNS' dtypes). Exactly round(selectivity * rows) trips last longer than
    9000 s, at pseudo-random rows. Deterministic for a seed, whatever
    `chunk_rows`; generated with CuPy when a GPU is usable (xp=None), else
    NumPy, `chunk_rows` rows at a time (the host holds the table and one
    chunk's temporaries). The selected rows are the same with NumPy and CuPy;
    other values may differ where a float result lies on a rounding edge."""
    if rows < 1:
        raise ValueError(f"taxi_table: rows must be >= 1, got {rows}")
    if not 0.0 <= selectivity <= 1.0:
        raise ValueError(f"taxi_table: selectivity must be in [0, 1], got {selectivity}")
    xp = xp or array_module()
    n_long = int(round(selectivity * rows))
    out = {name: np.empty(rows, dtype) for name, dtype in COLUMNS.items()}
    with np.errstate(over="ignore"):
        for a in range(0, rows, chunk_rows):
            b = min(rows, a + chunk_rows)
            part = _chunk(xp, a, b, rows, n_long, seed)
            for name, col in part.items():
                out[name][a:b] = col if xp is np else col.get()
            del part
    if xp is not np:
        xp.get_default_memory_pool().free_all_blocks()
    return out


# -- a real table ---------------------------------------------------------------

def _key(name: str) -> str:
    return name.strip().lower().replace(" ", "_")


def _to_numpy(col, dtype) -> np.ndarray:
    """A pyarrow column (numbers, or strings such as "$1,234.50") as `dtype`,
    nulls as 0."""
    import pyarrow as pa
    import pyarrow.compute as pc
    if pa.types.is_string(col.type) or pa.types.is_large_string(col.type):
        col = pc.replace_substring_regex(col, r"[$,\s]", "")
        col = pc.if_else(pc.equal(col, ""), pa.scalar(None, col.type), col)
        col = pc.cast(col, pa.float64())
    col = pc.fill_null(col, 0)
    a = col.to_numpy(zero_copy_only=False)
    if np.dtype(dtype).kind == "i":
        a = np.rint(a)
    return a.astype(dtype)


def read_table(path, rows: int | None = None) -> dict:
    """A Chicago Taxi Trips file (Parquet, or CSV as the City of Chicago
    exports it) as taxi_table's columns; the dataset's names ("Trip Seconds",
    "Trip Miles", "Fare", "Extras", "Tips", "Tolls") or their snake_case;
    nulls are 0. `rows`: only the first rows."""
    from pathlib import Path
    path = Path(path)
    try:
        import pyarrow  # noqa: F401
    except ImportError as e:
        raise ImportError("reading a taxi table (--table) needs pyarrow: "
                          "pip install pyarrow") from e
    parquet = path.suffix.lower() in (".parquet", ".pq")
    if parquet:
        import pyarrow.parquet as pq
        f = pq.ParquetFile(path)
        names = f.schema_arrow.names
    else:
        import pyarrow.csv as pcsv
        with open(path, newline="") as fh:
            import csv
            names = next(csv.reader(fh))
    found = {_key(n): n for n in names}
    pick = {}
    for col in COLUMNS:
        name = found.get(col) or found.get(_key(DATASET_NAMES[col]))
        if name is None:
            raise ValueError(f"{path}: no column {DATASET_NAMES[col]!r} (or {col!r}); "
                             f"it has {', '.join(names)}")
        pick[col] = name
    if parquet:
        batches = f.iter_batches(batch_size=1 << 22, columns=list(pick.values()))
    else:
        conv = pcsv.ConvertOptions(include_columns=list(pick.values()),
                                   column_types={n: pyarrow.string() for n in pick.values()})
        batches = pcsv.open_csv(path, convert_options=conv,
                                read_options=pcsv.ReadOptions(block_size=64 << 20))
    parts = {col: [] for col in COLUMNS}
    got = 0
    for batch in batches:
        if rows is not None and got >= rows:
            break
        take = batch.num_rows if rows is None else min(batch.num_rows, rows - got)
        batch = batch.slice(0, take)
        for col, name in pick.items():
            parts[col].append(_to_numpy(batch.column(name), COLUMNS[col]))
        got += take
    return {col: (np.concatenate(p) if p else np.empty(0, COLUMNS[col]))
            for col, p in parts.items()}


# -- references -----------------------------------------------------------------

def selected_rows(table: dict) -> np.ndarray:
    """The rows every query sums: trip_seconds > 9000."""
    return np.flatnonzero(table["trip_seconds"] > THRESHOLD)


def reference(table: dict, column: str, selected: np.ndarray | None = None) -> tuple[float, float]:
    """(the query's answer, the sum of the magnitudes it adds): float64 sums of
    the selected rows' values."""
    sel = selected_rows(table) if selected is None else selected
    v = table[column][sel].astype(np.float64)
    return float(v.sum()), float(np.abs(v).sum())


def wrong(got: float, want: float, scale: float, rtol: float = 1e-9) -> int:
    """1 unless `got` is within rtol of the magnitudes summed (0 == 0 exactly)."""
    return int(not abs(got - want) <= rtol * scale)


# -- workloads ------------------------------------------------------------------

class Columns:
    """What the five queries share: the table, its selected rows, and
    trip_seconds in pinned host memory (for the column-copy baseline)."""

    def __init__(self, table: dict):
        self.table = table
        self.rows = int(table["trip_seconds"].size)
        self.selected = selected_rows(table)
        self._pinned: dict = {}

    def pinned(self, column: str):
        """`column` in pinned host memory (made once)."""
        if column not in self._pinned:
            self._pinned[column] = harness.pinned_copy(self.table[column])
        return self._pinned[column]

    def release(self, column: str | None = None):
        for name in ([column] if column else list(self._pinned)):
            buf = self._pinned.pop(name, None)
            if buf is not None:
                buf.free()


class TaxiQuery(harness.Workload):
    """One query: sum(column) over the trips longer than 9000 s."""
    family = "query"
    source = SOURCE
    kernels = (KERNEL,)
    chunked_label = "column copy + CuPy (RAPIDS-style)"

    def __init__(self, query: str, cols: Columns):
        if query not in QUERIES:
            raise ValueError(f"no query {query!r}; there are {', '.join(QUERIES)}")
        if cols.rows < 1:
            raise ValueError("the taxi table has no rows")
        self.query, self.column, self.cols = query, QUERIES[query], cols
        self.name = f"{query} sum({self.column})"
        self.want, self.scale = reference(cols.table, self.column, cols.selected)

    def arrays(self):
        return {"secs": harness.Array(self.cols.table["trip_seconds"]),
                "vals": harness.Array(self.cols.table[self.column]),
                "out": harness.Array(np.zeros(1, np.float64), big=False, read_only=False)}

    def grid(self) -> int:
        return -(-self.cols.rows // BLOCK)

    def reset(self, run, i):
        run.set("out", np.zeros(1, np.float64))

    def launch(self, run, i):
        run.k[KERNEL](self.grid(), BLOCK, (run["secs"], run["vals"], np.uint64(self.cols.rows),
                                           np.int32(THRESHOLD), run["out"]))
        return {}

    def errors(self, run, i):
        return {"wrong_sum": wrong(float(run.get("out")[0]), self.want, self.scale)}

    def needed_bytes(self) -> int:
        """What the answer needs: trip_seconds whole, 4 bytes per selected row."""
        return self.cols.table["trip_seconds"].nbytes + 4 * int(self.cols.selected.size)

    def derive(self, row):
        if "bytes_in" not in row:
            return {}
        return {"io_amplification": row["bytes_in"] / self.needed_bytes()}

    def describe(self):
        return {"query": self.query, "column": self.column, "rows": self.cols.rows,
                "selected": int(self.cols.selected.size),
                "selectivity": self.cols.selected.size / self.cols.rows,
                "bytes_needed": self.needed_bytes(), "reference": self.want}

    def chunked(self, gpu_bytes, i, rt_raw):
        """Both columns copied from pinned host memory (whole when they fit in
        `gpu_bytes`, else chunks of rows of at most `gpu_bytes` in all), each
        chunk summed with CuPy; the time includes the copies."""
        import cupy
        rt = cupy.cuda.runtime
        secs_h = self.cols.pinned("trip_seconds")
        vals_h = self.cols.pinned(self.column)
        n = self.cols.rows
        per = max(BLOCK, gpu_bytes // 8 // BLOCK * BLOCK)   # 4 + 4 bytes a row
        per = min(n, per)
        secs_d = cupy.empty(per, np.int32)
        vals_d = cupy.empty(per, np.float32)
        thr = np.int32(THRESHOLD)
        # CuPy's kernels compiled before the timed run, at this chunk size (a
        # large boolean index takes another path than a small one) and with
        # rows selected (an empty selection skips the kernels that gather them)
        secs_d.fill(THRESHOLD + 1)
        vals_d[secs_d > thr].sum(dtype=np.float64).get()
        cupy.cuda.Device().synchronize()
        t = time.perf_counter()
        total = cupy.zeros((), np.float64)
        moved = 0
        for a in range(0, n, per):
            m = min(per, n - a)
            rt.memcpy(secs_d.data.ptr, secs_h.host_ptr + 4 * a, 4 * m, rt.memcpyHostToDevice)
            rt.memcpy(vals_d.data.ptr, vals_h.host_ptr + 4 * a, 4 * m, rt.memcpyHostToDevice)
            moved += 8 * m
            total += vals_d[:m][secs_d[:m] > thr].sum(dtype=np.float64)
        got = float(total.get())
        seconds = time.perf_counter() - t
        del secs_d, vals_d, total
        cupy.get_default_memory_pool().free_all_blocks()
        return (seconds, {"bytes_in": moved, "chunks": -(-n // per), "chunk_rows": per},
                {"wrong_sum": wrong(got, self.want, self.scale)})

    def release(self):
        """Gives back this query's pinned column (trip_seconds stays shared)."""
        if self.column != "trip_seconds":
            self.cols.release(self.column)


# -- command line ---------------------------------------------------------------

def parse_rows(text) -> int:
    """"256M" -> 256 * 2**20 rows; K, M, G are powers of 2; plain ints as is."""
    s = str(text).strip().upper()
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(s[-1:], 1)
    try:
        n = int(float(s[:-1] if mult > 1 else s) * mult)
    except ValueError:
        raise ValueError(f"--rows: {text!r} is not a row count (e.g. 4M, 268435456)") from None
    if n < 1:
        raise ValueError(f"--rows: {text!r} must be at least 1")
    return n


def add_arguments(p):
    from .cli import common_arguments
    common_arguments(p, backends="direct", xs="0,1,4,8", pages="4KiB", runs=3)
    p.add_argument("--rows", default=None,
                   help="trips in the synthetic table (K/M/G = 2**10/20/30; default 256M: the "
                   "two columns of one query are 2 GiB; --quick: 4M); with --table, only the "
                   "first rows")
    p.add_argument("--selectivity", type=float, default=SELECTIVITY,
                   help=f"fraction of trips longer than 9000 s (default {SELECTIVITY})")
    p.add_argument("--seed", type=int, default=1, help="synthetic table seed (default 1)")
    p.add_argument("--table", default=None,
                   help="a Chicago Taxi Trips Parquet or CSV file instead of the synthetic table "
                   "(needs pyarrow)")
    p.add_argument("--queries", default=",".join(QUERIES),
                   help=f"comma-separated (default {','.join(QUERIES)})")


def run(args) -> int:
    from .cli import plan_from
    plan = plan_from(args)
    queries = [q.strip().lower() for q in args.queries.split(",") if q.strip()]
    bad = [q for q in queries if q not in QUERIES]
    if bad or not queries:
        raise SystemExit(f"--queries: no query {', '.join(bad) or '(none)'}; "
                         f"there are {', '.join(QUERIES)}")
    from ..runtime.cuda import require_gpu
    require_gpu(plan.device)     # before minutes of table building
    t = time.perf_counter()
    if args.table:
        table = read_table(args.table, parse_rows(args.rows) if args.rows else None)
        what = args.table
    else:
        rows = parse_rows(args.rows) if args.rows else (QUICK_ROWS if args.quick else DEFAULT_ROWS)
        table = taxi_table(rows, seed=args.seed, selectivity=args.selectivity)
        what = f"synthetic (seed {args.seed})"
    cols = Columns(table)
    print(f"taxi table {what}: {cols.rows:,} trips, {cols.selected.size:,} longer than "
          f"{THRESHOLD} s ({100 * cols.selected.size / max(1, cols.rows):.3f} %), ready in "
          f"{time.perf_counter() - t:.1f} s", flush=True)

    return harness.run_experiment("query", workloads(cols, queries), len(queries), plan)


def workloads(cols: Columns, queries):
    """The queries over one table's columns, one at a time (each query's
    pinned copy is freed before the next)."""
    try:
        for q in queries:
            w = TaxiQuery(q, cols)
            yield w
            w.release()
    finally:
        cols.release()


def workloads_for(rows: int, queries, seed: int = 1):
    """The queries over a synthetic table of `rows` trips."""
    return workloads(Columns(taxi_table(rows, seed=seed)), queries)
