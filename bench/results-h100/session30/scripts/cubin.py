import sys
from dream.runtime.compile import compile_source
from dream.runtime.backends import all_backends
from dream.bench.graph import CSR, KERNELS
from dream.bench.harness import DREAM_BUILD, RAW_BUILD
name, which, out = sys.argv[1], sys.argv[2], sys.argv[3]
d = all_backends()["direct"].define
src = (RAW_BUILD if which == "raw" else DREAM_BUILD) + CSR + KERNELS
opts = (d,) + (("DREAM_RESIDENT_KERNEL",) if which == "res" else ())
img, _ = compile_source(src, (name,), "sm_90", opts)
open(out, "wb").write(img)
