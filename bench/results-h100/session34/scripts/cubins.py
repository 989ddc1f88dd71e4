from dream.runtime.compile import link_kernel
from dream.bench.harness import DREAM_BUILD, RAW_BUILD
from dream.bench import graph as G
import os
out = "/work/main/.b34/cubin"; os.makedirs(out, exist_ok=True)
for tag, pre, r in (("raw", RAW_BUILD, False), ("res", DREAM_BUILD, True), ("gen", DREAM_BUILD, False)):
    img, low = link_kernel(pre + G.CSR + G.KERNELS, ("bfs_step", "cc_hook"), "sm_90", ("DREAM_BACKEND_DIRECT",), (), "g.cu", r)
    open(f"{out}/{tag}.cubin", "wb").write(img); print(tag, len(img), img[:4])
