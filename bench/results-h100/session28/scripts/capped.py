"""Runs a script or `dream bench` with the fault module capped at argv[1] registers."""
import runpy, sys
import dream.runtime.compile as c
c.FAULT_REGISTERS = int(sys.argv[1])
if sys.argv[2] == "bench":
    from dream.bench.cli import main
    sys.exit(main(sys.argv[3:]))
sys.argv = sys.argv[2:]
runpy.run_path(sys.argv[0], run_name="__main__")
