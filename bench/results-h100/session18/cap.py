"""Run a dream bench/diag with the fault module capped at argv[1] registers."""
import sys, runpy
import dream.runtime.compile as c
c.FAULT_REGISTERS = int(sys.argv[1])
target = sys.argv[2]
sys.argv = [target] + sys.argv[3:]
if target.endswith(".py"):
    runpy.run_path(target, run_name="__main__")
else:
    runpy.run_module(target, run_name="__main__", alter_sys=True)
