"""Session 49 (prepared in session 48): header directories wrong on purpose
for wip/range-hint, made from this tree's headers; each must fail the tests
named in c1_range.sh. argv[1]: the directory to make them under
(<dir>/<name>/dream/...)."""
import shutil
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[4] / "dream" / "cuda" / "include"
F = "dream/fault.cuh"
MUTANTS = {
    # a page's range runs to the page's end, past the array's last element:
    # an index past the end on the last page hits it, with no bounds check
    "span_unclipped": ("    h.span = p.n - lo < per ? p.n - lo : per;", "    h.span = per;"),
    # a write in the range stores without its page marked dirty by this copy
    "write_unmarked": ("    if (i - h.lo < h.span && h.dirty == page + 1) {", "    if (i - h.lo < h.span) {"),
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
