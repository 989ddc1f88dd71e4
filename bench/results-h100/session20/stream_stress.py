"""The transfer benchmark's stream kernel at a chosen grid, REPS launches (each
cold), with a thread printing the GPU's and the engine's counters every 2 s;
on a failure, the failing queue's state (tickets, slot sequence, SQ and CQ
slots, UAR). DEPTH=d forces the launch's read-ahead depth.
    REPS=150 python stream_stress.py softrnic 4096 528 128 [data MiB] [ring MiB]"""
import sys, time, threading, os
import numpy as np, cupy
import dream
from dream.runtime import abi
from dream.bench import transfer as T
from dream.bench.transfer_kernels import STREAM, dream_source

backend, page, grid, block = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
nbytes = int(sys.argv[5]) << 20 if len(sys.argv) > 5 else 256 << 20
ring = int(sys.argv[6]) << 20 if len(sys.argv) > 6 else nbytes // 4
name, _, o = backend.partition(":")
opts = {k: int(v) if v.isdigit() else v for k, v in (kv.split("=") for kv in o.split(","))} if o else {}
import os
if "DEPTH" in os.environ:
    _orig = dream.Runtime._launch_flags
    def _lf(self, warps, _d=int(os.environ["DEPTH"])):
        f = _orig(self, warps)
        return (f & ~(abi.PTR_AHEAD_MASK << abi.PTR_AHEAD_SHIFT)) | (_d << abi.PTR_AHEAD_SHIFT)
    dream.Runtime._launch_flags = _lf
host = np.arange(nbytes // 8, dtype=np.uint64)
with dream.Runtime(backend=name, page_size=page, gpu_memory=ring, host_timeout="30s", **opts) as rt:
    a = rt.array(host.view(np.complex128), name="data")
    k = rt.kernel(dream_source(STREAM), "stream")
    sink = cupy.zeros(1, np.uint64)
    n16 = nbytes // 16
    per = T.grid_stream(n16, grid * block // 32)
    side = cupy.cuda.Stream(non_blocking=True)
    done = threading.Event()
    def mon():
        t0 = time.time()
        while not done.wait(2):
            c = rt._backend.counters() if hasattr(rt._backend, "counters") else {}
            d = rt._counters.get(stream=side).reshape(abi.COUNTER_SHARDS, abi.NCOUNTERS).sum(0)
            dc = dict(zip(abi.COUNTERS, d.tolist()))
            print(f"  t={time.time()-t0:5.1f} dev={dc} eng={ {k: c.get(k) for k in ('doorbells','wqes','cqes','passes','batches','copies')} }", flush=True)
    cap = {}
    _de = rt._device_error
    def de(e, what):
        cap["e"] = e.copy()
        return _de(e, what)
    rt._device_error = de
    def dump():
        e = cap.get("e")
        if e is None:
            be = rt._backend
            nic = getattr(be, "nic", None)
            print("no error record; engine error:", nic.engine.error if nic else None,
                  "counters:", nic.counters() if nic else None); return
        print("error record", e)
        qi, t16, op = (int(x) for x in e["detail"][:3])
        nic = rt._backend.nic
        from dream.verbs import mlx5
        print("ENGINE ERROR:", nic.engine.error, "running:", nic.engine.running)
        print("engine qp", qi, nic.engine.qp_info(qi), "counters", nic.counters())
        descs = np.frombuffer(nic._descs.get().tobytes(), dtype=mlx5.RNIC_QUEUE)
        print("queue desc", descs[qi])
        seq = nic._seq[qi * nic.depth:(qi + 1) * nic.depth].get()
        tk = int(descs[qi]["q"]["ticket"]); rung = int(descs[qi]["q"]["rung"])
        print("ticket", tk, "rung", rung, "t16", t16, "seq - 2*ticket-ish:", [(i, int(v)) for i, v in enumerate(seq)])
        ring = nic.depth * mlx5.SEND_WQE_BB
        off = nic._sq(qi)
        qm = nic._qmem.get() if nic.queue_memory == "gpu" else np.array(nic._qmem.bytes)
        cq = qm[off + ring: off + 2 * ring].reshape(nic.depth, 64)
        sq = qm[off: off + ring].reshape(nic.depth, 64)
        for i in [(t16 + d) % nic.depth for d in range(-2, 6)]:
            print(f"slot {i:2d} sq {sq[i][:16].tobytes().hex()} cq tail {cq[i][48:64].tobytes().hex()}")
        uar = np.array(nic._uar.bytes[qi * 64: qi * 64 + 8]).tobytes().hex()
        print("uar", uar, "dbr", qm[off + 2 * ring: off + 2 * ring + 8].tobytes().hex())
    th = threading.Thread(target=mon, daemon=True); th.start()
    for rep in range(int(os.environ.get("REPS", 2))):
        rt.evict(); rt.reset_stats()
        t0 = time.time()
        try:
            k(grid, block, (a, np.uint64(n16), np.uint64(per), sink))
            if rep < 2: print(f"{backend} {page} {grid}x{block}: {time.time()-t0:.3f} s {rt.stats()}", flush=True)
        except Exception as e:
            print(f"{backend} {page} {grid}x{block}: FAILED after {time.time()-t0:.1f} s: {type(e).__name__}: {e}", flush=True)
            done.set()
            try:
                dump()
            except Exception as x:
                print("dump failed", type(x).__name__, x)
            import os; os._exit(3)
    print(f"all {os.environ.get('REPS', 2)} reps passed", flush=True)
    done.set()
