import sys, os
from dream.runtime.compile import link_kernel
from dream.bench.harness import DREAM_BUILD
from dream.bench import graph as G
tag = sys.argv[1]
img, low = link_kernel(DREAM_BUILD + G.CSR + G.KERNELS, ("bfs_step", "cc_hook"), "sm_90", ("DREAM_BACKEND_DIRECT",), (), "g.cu", True)
open(f"/tmp/{tag}.cubin", "wb").write(img)
