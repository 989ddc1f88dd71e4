"""pytest plugin: one line per test as it ends (seconds in all, seconds compiling), to $OUT/$DURFILE."""
import os, time
import dream.runtime.compile as C, dream.runtime.copier as CP, dream.runtime.runtime as RT
acc = [0.0]
def wrap(f):
    def g(*a, **k):
        t = time.perf_counter()
        try:
            return f(*a, **k)
        finally:
            acc[0] += time.perf_counter() - t
    return g
cs = wrap(C.compile_source)
C.compile_source = CP.compile_source = RT.compile_source = cs
C._linked = wrap(C._linked)
out = open(os.path.join(os.environ.get("OUT", "/tmp"), os.environ.get("DURFILE", "dur.txt")), "a", buffering=1)
_start = {}
def pytest_runtest_logstart(nodeid, location):
    _start[nodeid] = (time.perf_counter(), acc[0])
def pytest_runtest_logfinish(nodeid, location):
    t0, c0 = _start.pop(nodeid, (time.perf_counter(), acc[0]))
    out.write(f"{time.perf_counter() - t0:8.2f} {acc[0] - c0:7.2f} {nodeid}\n")
