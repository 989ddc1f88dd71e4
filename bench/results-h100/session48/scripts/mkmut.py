"""Session 48 (prepared in session 47): header directories wrong on purpose,
for the whole-at-home test (tests/test_core_gpu.py) to fail on. argv[1]: the
directory to make them under (<dir>/<name>/dream/...)."""
import shutil
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[4] / "dream" / "cuda" / "include"
F = "dream/fault.cuh"
MUTANTS = {
    # the write that finds the array whole marks nothing
    "switch_unmarked": ("""        if (dirty)
            dream_mark_dirty(p.home_dirty + page);
        h = {DREAM_HINT_WHOLE, dirty ? key : 0};""", """        h = {DREAM_HINT_WHOLE, dirty ? key : 0};"""),
    # a read's switch leaves its page as if marked
    "read_switch_as_marked": ("""        h = {DREAM_HINT_WHOLE, dirty ? key : 0};""", """        h = {DREAM_HINT_WHOLE, key};"""),
    # a write in WHOLE marks nothing
    "whole_write_unmarked": ("""            if (h.base != (uint64_t)pte) {
                dream_mark_dirty(p.home_dirty + page);
                h.base = (uint64_t)pte;
            }""", """            if (h.base != (uint64_t)pte)
                h.base = (uint64_t)pte;"""),
}
out = Path(sys.argv[1])
for name, (a, b) in MUTANTS.items():
    d = out / name
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(SRC, d)
    t = (d / F).read_text()
    assert t.count(a) == 1, name
    (d / F).write_text(t.replace(a, b))
    print(name, d)
