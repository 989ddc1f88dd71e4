import sys, re
from dream.runtime.compile import compile_source
from dream.runtime.backends import all_backends
from dream.bench.graph import CSR, KERNELS
from dream.bench.harness import DREAM_BUILD, RAW_BUILD
src = DREAM_BUILD + CSR + KERNELS
d = all_backends()["direct"].define
for opts in [(d,), (d, "DREAM_RESIDENT_KERNEL")]:
    ptx, _ = compile_source(src, ("cc_hook",), "compute_90", opts)
    ptx = ptx.decode() if isinstance(ptx, bytes) else ptx
    body = ptx[ptx.find(".entry cc_hook"):]
    body = body[:body.find("\n}\n")]
    print(opts, {k: len(re.findall(k, body)) for k in ["atom.global.cas", "atom.global.min", "red.global.min", "atom.global.add", r"red\.", r"ld\.global", "ld.param"]})
