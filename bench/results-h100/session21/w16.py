"""Stream kernel at 64 KiB through a ring of 1/4, launch shapes w8/w16/w64, with stats (session 21 diag)."""
import sys, time, json
import numpy as np, cupy
from dream.bench import transfer as T
from dream.bench.harness import ring_bytes
from dream.runtime.pinned import PinnedBuffer
nbytes = 256 << 20
pinned = PinnedBuffer(nbytes)
data = pinned.view(np.uint64)
T.fill_pattern(data)
blocks = np.random.default_rng(1).integers(0, nbytes // 4096, 1024).astype(np.uint64)
u32 = pinned.view(np.uint32)
checks = {"all": T.xor_words(u32), "gather": T.xor_words(u32, blocks)}
h2d = T.bulk_h2d(pinned, nbytes, 3)["GBps"]
print(f"bulk h2d {h2d:.2f} GB/s", flush=True)
def fixed(mult):
    def shape(rt, kernel):
        resident = kernel.resident_threads((10**9, 1, 1), (256, 1, 1)) // 32
        return max(1, min(resident, rt.gpu.sms * mult) // 8), 256
    return shape
backends = sys.argv[1].split(",")
mults = [int(m) for m in sys.argv[2].split(",")]
pages = [int(p) for p in (sys.argv[3] if len(sys.argv) > 3 else "65536").split(",")]
keys = ("faults", "pages_in", "ahead", "coalesced", "evictions", "retries", "frame_skips", "wait_ns")
for b in backends:
    for page in pages:
        for m in mults:
            T.launch_shape = fixed(m)
            r = T.run_dream(b, {}, page, lambda rt: rt.array(data.view(np.complex128), name="data"),
                            nbytes, blocks, 2, checks, ring_bytes(nbytes, 3, page))
            s = r["stream"]
            st = {k: s["stats"].get(k) for k in keys}
            print(f"{b} {page>>10}K w{m} grid {s['grid']}x{s['block']} stream {s['GBps']:.2f} GB/s "
                  f"({s['GBps']/h2d:.2f}x) ok={s['checksum_ok']} {json.dumps(st)}", flush=True)
