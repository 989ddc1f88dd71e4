"""Every workload at oversubscription x = 0..8 (DREAM Fig. 14): the slowdown
of each backend against its own x = 0 (vs_x0) and against the same kernel
on plain device memory (vs_in_memory), with UVM first touch at x = 0 and the
chunked copy at every x beside it; one panel per workload, every backend on
it. UVM is not run beyond x = 0 here: oversubscribed managed memory can hang
a shared GPU (the paper's exponential UVM curves are not reproduced).

Sizes are smaller than each experiment's own default so that the sweep ends
in minutes: graphs of scale 20, 8192 x 8192 matrices, 2**26-element vector
add, 32 M-row query columns (--quick: a few MiB each).

    dream bench oversubscription --backend direct,softrnic --oversubscription 0,1,2,4,8
"""
from __future__ import annotations


def add_arguments(p):
    from .cli import common_arguments
    common_arguments(p, xs="0,1,2,4,8", runs=1, systems="dream,in_memory,uvm,chunked")
    p.add_argument("--workloads", default="bfs,cc,sssp,atax,mvt,bicg,vadd,query",
                   help="graph kernels run on CSR; query is Q4 (tips)")


def run(args) -> int:
    from . import graph, polybench, query
    from .cli import plan_from
    from .harness import run_experiment
    plan = plan_from(args)
    names = args.workloads.split(",")
    known = {"bfs", "cc", "sssp", "atax", "mvt", "bicg", "vadd", "query"}
    for n in names:
        if n not in known:
            raise SystemExit(f"--workloads: no workload {n!r}; there are {', '.join(sorted(known))}")

    def all_workloads():
        gk = [n for n in names if n in graph.KERNEL_NAMES]
        if gk:
            g = graph.kronecker(12 if args.quick else 20, 16, 1)
            yield from graph.workloads(g, gk, ["csr"])
        pb = [n for n in names if n in ("atax", "mvt", "bicg", "vadd")]
        yield from polybench.workloads(pb, 1024 if args.quick else 8192,
                                       1 << 20 if args.quick else 1 << 26)
        if "query" in names:
            yield from query.workloads_for(1 << 20 if args.quick else 32 << 20, ["q4"])
    return run_experiment("oversubscription", all_workloads(), len(names), plan)
