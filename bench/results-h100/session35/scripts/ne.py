"""Runs a script or `-m dream ...` with the general build compiled for launches that evict
nothing (DREAM_NO_EVICT_KERNEL) when NE=1: every launch here is at x = 0."""
import os, sys, runpy
if os.environ.get("NE") == "1":
    from dream.runtime import kernel as K
    orig = K.link_kernel
    def link(source, names, arch, defines, options=(), filename="kernel.cu", resident=False):
        if not resident:
            defines = (*defines, "DREAM_NO_EVICT_KERNEL")
        return orig(source, names, arch, defines, options, filename, resident)
    K.link_kernel = link
sys.argv = sys.argv[1:]
if sys.argv[0] == "-m":
    sys.argv = sys.argv[1:]
    runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
else:
    runpy.run_path(sys.argv[0], run_name="__main__")
