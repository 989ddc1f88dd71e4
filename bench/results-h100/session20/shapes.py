"""Transfer stream/gather under launch shapes (w64 = the benchmark's own since
session 20) and softrnic queue placements, then the serial fault latency.
    python shapes.py "direct;softrnic;softrnic:queue_memory=host" [frames,w8,..]"""
import sys, time, json
import numpy as np, cupy
import dream
from dream.bench import transfer as T
from dream.bench.harness import raw_runtime, ring_bytes
from dream.runtime.pinned import PinnedBuffer

nbytes = 256 << 20
pinned = PinnedBuffer(nbytes)
data = pinned.view(np.uint64)
T.fill_pattern(data)
rng = np.random.default_rng(1)
blocks = rng.integers(0, nbytes // 4096, nbytes // 4 // 4096).astype(np.uint64)
u32 = pinned.view(np.uint32)
checks = {"all": T.xor_words(u32), "gather": T.xor_words(u32, blocks)}
h2d = T.bulk_h2d(pinned, nbytes, 3)["GBps"]
print(f"bulk h2d {h2d:.2f} GB/s", flush=True)
orig = T.launch_shape

def fixed(mult):
    def shape(rt, kernel):
        resident = kernel.resident_threads((10**9, 1, 1), (256, 1, 1)) // 32
        warps = min(resident, rt.gpu.sms * mult)
        return max(1, warps // 8), 256
    return shape

def frames(rt, kernel):
    """The old shape: one warp per frame at most."""
    resident = kernel.resident_threads((10**9, 1, 1), (256, 1, 1))
    warps = max(1, min(resident, rt.nframes) // 32)
    block = 32 * max(1, min(8, warps // rt.gpu.sms))
    return max(1, warps * 32 // block), block

shapes = {"frames": frames, "w8": fixed(8), "w16": fixed(16), "w64": fixed(64)}
backs = [a for a in sys.argv[1].split(";")]
sel = sys.argv[2].split(",") if len(sys.argv) > 2 else list(shapes)
for b in backs:
    name, _, o = b.partition(":")
    opts = dict(kv.split("=") for kv in o.split(",")) if o else {}
    for page in (4096, 65536):
        for sn in sel:
            T.launch_shape = shapes[sn]
            t0 = time.time()
            r = T.run_dream(name, opts, page, lambda rt: rt.array(data.view(np.complex128), name="data"),
                            nbytes, blocks, 2, checks, ring_bytes(nbytes, 3, page))
            s, g = r["stream"], r["gather"]
            print(f"{b:24s} {page>>10:3d}K {sn:6s} grid {s['grid']:5d}x{s['block']} stream {s['GBps']:6.2f} "
                  f"({s['GBps']/h2d:.2f}x) ok={s['checksum_ok']} gather {g['GBps']:6.2f} ok={g['checksum_ok']} "
                  f"[{time.time()-t0:.1f}s]", flush=True)
    T.launch_shape = orig
    for rep in range(2):
        lat = T.serial_latency(name, opts, 4096, data)
        print(f"{b:24s} serial {lat/1e3:.2f} us", flush=True)
