"""Session 45 experiment: the general build's kernel module and slow paths both
capped at CAP registers (argv[1]; 0 = main's link), then `dream bench` with the
remaining arguments. Not a product path: compile.py links the kernel module
uncapped (its own code needs 95 registers for cc_hook), so every general build
runs at 128 registers, 16 warps an SM in 256-thread blocks; 80 gives 24, 64 gives 32."""
import sys

import dream.runtime.compile as C
import dream.runtime.kernel as K

import os
from pathlib import Path
if os.environ.get("DREAM_INC"):  # variant headers
    C.INCLUDE_DIR = Path(os.environ["DREAM_INC"])
cap = int(sys.argv[1].rstrip("n"))
if sys.argv[1].endswith("n"):  # the cap not told to the headers: 8 loads in flight a lane, early start kept
    C.register_cap = lambda options: ()
orig = K.link_kernel


def capped(source, names, arch, defines, options=(), filename="kernel.cu", resident=False):
    if resident or C.own_budget(source, options):
        return orig(source, names, arch, defines, options, filename, resident)
    opt = ("-rdc=true", f"--maxrregcount={cap}")
    fault = C.compile_source("", (), arch, defines, opt, "dream_fault.cu")
    own = tuple(d for d in defines if not d.startswith("DREAM_BACKEND_"))
    kernel, lowered = C.compile_source(source, names, arch, (*own, "DREAM_FAULT_LINKED"), (*options, *opt), filename)
    return C._linked([kernel, fault[0]], arch), lowered


if cap:
    K.link_kernel = capped
from dream.bench.cli import main
sys.exit(main(sys.argv[2:]))
