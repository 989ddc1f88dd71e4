"""`dream bench`: the DREAM evaluation (ICS '25, sections 5.2-5.5) as
experiments of the package, each runnable from one command, every figure a
ratio to baselines measured in the same run. `dream bench --list` names
them; dream/bench/harness.py holds what they share."""

# name -> (module, what it measures); each module has add_arguments(parser)
# and run(args) -> int
EXPERIMENTS = {
    "transfer": ("dream.bench.transfer",
                 "streaming read and random 4 KiB gather vs bulk H2D, zero-copy, UVM, batched copies; "
                 "serial fault latency"),
    "queues": ("dream.bench.queues", "gather through a queue backend as queue pairs grow (Fig. 11)"),
    "graph": ("dream.bench.graph", "BFS, CC, SSSP in CSR and Balanced CSR vs in-memory and UVM (Fig. 9, 12)"),
    "polybench": ("dream.bench.polybench", "ATAX, MVT, BICG, vector add as UVMBench ships them (Fig. 13)"),
    "query": ("dream.bench.query", "the Chicago-taxi queries Q1-Q5 vs whole-column copies and UVM (Fig. 15)"),
    "oversubscription": ("dream.bench.oversubscription",
                         "every workload at x = 0..8: slowdown vs its x = 0 and vs in-memory (Fig. 14)"),
}
