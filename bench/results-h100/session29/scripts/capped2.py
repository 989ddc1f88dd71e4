"""Runs a script, or `dream bench` (argv[2] == "bench"), with every general
build capped at argv[1] registers: the fault module (FAULT_REGISTERS) and
the kernel's own module (--maxrregcount), so the kernel's count is the cap
(session 29)."""
import runpy, sys
import dream.runtime.compile as c
cap = int(sys.argv[1])
c.FAULT_REGISTERS = cap
_cs = c.compile_source
def compile_source(source, names, arch, defines, options=(), filename="kernel.cu"):
    if "DREAM_FAULT_LINKED" in defines and "DREAM_RESIDENT_KERNEL" not in defines:
        options = (*options, f"--maxrregcount={cap}")
    return _cs(source, names, arch, defines, options, filename)
c.compile_source = compile_source
if sys.argv[2] == "bench":
    from dream.bench.cli import main
    sys.exit(main(sys.argv[3:]))
sys.argv = sys.argv[2:]
runpy.run_path(sys.argv[0], run_name="__main__")
