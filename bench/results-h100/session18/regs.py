"""Run a dream bench or diag at a register budget (session-18 diag).

  python regs.py fault N TARGET ARGS...    the linked slow paths' module capped at
                                           N registers (compile.FAULT_REGISTERS);
                                           the kernel's own module is not capped
  python regs.py kernel N TARGET ARGS...   every dream kernel compiled whole at
                                           --maxrregcount=N (the fault path inside
                                           it, capped and spilling), so the hit path
                                           runs at the occupancy N allows

TARGET is a module (dream.bench) or a script. The question: is the homes-off
launch (every access through its entry: 101 ms against 30 ms at home) bound by
the registers the slow paths give every kernel (128, or 98-112 for the access
functions compiled into the kernel's own module)?"""
import sys, runpy
from dream.bench import harness
import dream.runtime.compile as compile_

mode, regs, target = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if mode == "fault":
    compile_.FAULT_REGISTERS = regs
elif mode == "kernel":
    harness.DreamSystem.kernel = lambda self, source, name: self.rt.kernel(
        harness.DREAM_BUILD + source, name, (f"--maxrregcount={regs}",))
else:
    sys.exit(f"regs.py: mode is fault or kernel, not {mode!r}")
sys.argv = [target] + sys.argv[4:]
if target.endswith(".py"):
    runpy.run_path(target, run_name="__main__")
else:
    runpy.run_module(target, run_name="__main__", alter_sys=True)
