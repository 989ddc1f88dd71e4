"""PROTOTYPE (session 32): the transfer benchmark's serial fault (one warp,
2,000 distinct 4 KiB pages, direct, O6 with homes), its misses served by
persistent warps (fault_served.cuh, serve_src.cu), against main's build, in
one process."""
import os, time, shutil
import numpy as np, cupy
import dream
import dream.runtime.compile as C
from dream.runtime.cuda import launch, param_layout
from dream.bench.transfer import serial_step
from dream.bench.transfer_kernels import SERIAL, dream_source
n, page = 2000, 4096
data = np.random.default_rng(2).integers(0, 2**63, n * page // 8, dtype=np.uint64)
rt = dream.Runtime(backend="direct", page_size=page, gpu_memory=n * page + 64 * page)
a = rt.array(data.view(np.complex128))
sink, ns = cupy.zeros(1, np.uint64), cupy.zeros(1, np.uint64)
args = (a, np.uint64(page // 16), np.uint64(n), np.uint64(serial_step(n)), sink, ns)
def serial(k, server=None):
    out = []
    for _ in range(4):
        rt.evict(); cupy.cuda.Device().synchronize(); rt.reset_stats()
        if server: server.start()
        k(1, 32, args)
        if server: server.stop()
        assert rt.stats().pages_in == n, rt.stats()
        out.append(int(ns.get()[0]) / (n - 1) / 1e3)
    return " ".join(f"{x:.2f}" for x in out)
km = rt.kernel(dream_source(SERIAL), "serial")
print("main  :", serial(km), "us", flush=True)
inc = os.path.join(os.path.dirname(dream.__file__), "cuda", "include", "dream", "fault.cuh")
shutil.copy(".b32/v/fault_served.cuh", inc)
C.compile_source.cache_clear(); C.link_kernel.cache_clear()
mods = []
load = rt._load
rt._load = lambda image: mods.append(load(image)) or mods[-1]
ks = rt.kernel(dream_source(SERIAL) + open(".b32/serve_src.cu").read(), "serial")
rt._load = load
serve, ring = mods[0].function("serve"), mods[0].global_ptr("dream_serve")
offs = param_layout(serve)
class Server:
    def __init__(self, blocks): self.blocks, self.stream = blocks, cupy.cuda.Stream(non_blocking=True)
    def start(self):
        cupy.cuda.runtime.memset(ring, 0, 32 + 8 * (1 << 18)); cupy.cuda.Device().synchronize()
        arg = a.kernel_arg(rt._launch_flags(1))
        buf = bytearray(offs[-1][0] + offs[-1][1])
        for o, _ in offs:
            buf[o:o + len(arg)] = arg
        launch(serve, (self.blocks, 1, 1), (32, 1, 1), bytes(buf), [o for o, _ in offs], self.stream.ptr)
        time.sleep(0.01)
    def stop(self):
        one = np.ones(1, np.uint64)
        cupy.cuda.runtime.memcpy(ring + 16, one.ctypes.data, 8, cupy.cuda.runtime.memcpyHostToDevice)
        self.stream.synchronize()
for b in (1, 4):
    print(f"served ({b} server warps):", serial(ks, Server(b)), "us", flush=True)
print("main  :", serial(km), "us", flush=True)
shutil.copy(".b32/v/fault_main.cuh", inc)
rt.close()
