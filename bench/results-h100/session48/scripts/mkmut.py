"""Session 48 (prepared in session 47): header directories wrong on purpose,
for the whole-at-home test (tests/test_core_gpu.py) to fail on, made from this
tree's headers (wip/whole-test's or wip/whole-bit's code: each mutant lists a
replacement for either; in wip/whole-bit one mark serves the switch and the
later misses, so two of them are the same there). argv[1]: the directory to
make them under (<dir>/<name>/dream/...)."""
import shutil
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[4] / "dream" / "cuda" / "include"
F = "dream/fault.cuh"
BIT_MARK = ("""        if (dirty)
            dream_mark_dirty(p.home_dirty + page);
        if (!known)""", """        if (!known)""")
BIT2_MARK = ("""            dream_mark_dirty(p.home_dirty + page);
            h = {key""", """            h = {key""")
MUTANTS = {
    # the write that finds the array whole marks nothing
    "switch_unmarked": [("""        if (dirty)
            dream_mark_dirty(p.home_dirty + page);
        h = {DREAM_HINT_WHOLE, dirty ? key : 0};""", """        h = {DREAM_HINT_WHOLE, dirty ? key : 0};"""), BIT_MARK, BIT2_MARK],
    # a read's switch leaves its page as if marked
    "read_switch_as_marked": [("""        h = {DREAM_HINT_WHOLE, dirty ? key : 0};""", """        h = {DREAM_HINT_WHOLE, key};"""),
                              ("""        h = {key | DREAM_HINT_WHOLE | (dirty ? DREAM_HINT_DIRTY : 0), (uint64_t)base};""",
                               """        h = {key | DREAM_HINT_WHOLE | DREAM_HINT_DIRTY, (uint64_t)base};"""),
                              ("""            h = {key | DREAM_HINT_WHOLE, (uint64_t)base};""",
                               """            h = {key | DREAM_HINT_WHOLE | DREAM_HINT_DIRTY, (uint64_t)base};""")],
    # a write after the switch marks nothing
    "whole_write_unmarked": [("""            if (h.base != (uint64_t)pte) {
                dream_mark_dirty(p.home_dirty + page);
                h.base = (uint64_t)pte;
            }""", """            if (h.base != (uint64_t)pte)
                h.base = (uint64_t)pte;"""), BIT_MARK, BIT2_MARK],
}
out = Path(sys.argv[1])
for name, alternatives in MUTANTS.items():
    d = out / name
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(SRC, d)
    t = (d / F).read_text()
    a, b = next((a, b) for a, b in alternatives if t.count(a) == 1)
    (d / F).write_text(t.replace(a, b))
    print(name, d)
