"""Serial fault latency (transfer.py's SERIAL kernel: one warp, 2,000 distinct 4 KiB pages, ring holds all):
serial.py TAG BACKEND[,BACKEND...]; each backend 'name' or 'name:key=value'. Three launches a runtime, each cold."""
import sys, time, tempfile, numpy as np, cupy
import dream
from dream.bench.transfer import dream_source, SERIAL, serial_step
tag = sys.argv[1]
page = 4096
data = np.random.default_rng(2).integers(0, 2**63, 2000 * 4096 // 8, dtype=np.uint64)
nbytes = 2000 * page
for spec in sys.argv[2].split(","):
    name, *kv = spec.split(":")
    opts = dict(x.split("=") for x in kv)
    if name == "nvme":
        opts.setdefault("directory", tempfile.mkdtemp(dir="/tmp"))
    with dream.Runtime(backend=name, page_size=page, gpu_memory=nbytes + 64 * page, **opts) as rt:
        a = rt.array(data.view(np.complex128))
        k = rt.kernel(dream_source(SERIAL), "serial")
        sink, ns = cupy.zeros(1, np.uint64), cupy.zeros(1, np.uint64)
        n = nbytes // page
        got = []
        for r in range(3):
            rt.evict(); rt.reset_stats()
            k(1, 32, (a, np.uint64(page // 16), np.uint64(n), np.uint64(serial_step(n)), sink, ns))
            s = rt.stats()
            assert s.pages_in == n and not s.ahead, s
            got.append(int(ns.get()[0]) / (n - 1) / 1e3)
        print(f"{tag:5s} {spec:28s} per fault " + " ".join(f"{x:.2f}" for x in got) + " us", flush=True)
