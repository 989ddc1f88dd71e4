"""Session 49: header variants for measurement only, made from this tree's
headers under argv[1]/<name>/dream/...: `nodirty` writes in a range, and at
home, without their page's dirty mark (wrong: such a page is never written
back), to measure what the mark costs; `exit`, a failed access check ends
the thread after its record (the resident build's and the others'), so that
no check needs a reconvergence point on the hit path; `both`."""
import shutil
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[4] / "dream" / "cuda" / "include"
F = "dream/fault.cuh"
EDITS = {
    "nodirty": [("    if (i - h.lo < h.span && h.dirty == page + 1) {", "    if (i - h.lo < h.span) {"),
                ("        if (h.dirty != page + 1) { /* the copy's first write to the page */",
                 "        if (false) {")],
    "exit": [("                                   (min(block, DREAM_RFAIL_BLOCK_MAX) + 1) << DREAM_RFAIL_BLOCK_SHIFT);\n    }\n#else\n    dream_access_failed(p, i, sizeof(T));\n#endif",
              "                                   (min(block, DREAM_RFAIL_BLOCK_MAX) + 1) << DREAM_RFAIL_BLOCK_SHIFT);\n    }\n#else\n    dream_access_failed(p, i, sizeof(T));\n#endif\n    asm volatile(\"exit;\");")],
}
EDITS["both"] = EDITS["nodirty"] + EDITS["exit"]
out = Path(sys.argv[1])
for name, edits in EDITS.items():
    d = out / name
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(SRC, d)
    t = (d / F).read_text()
    for a, b in edits:
        assert t.count(a) == 1, (name, a)
        t = t.replace(a, b)
    (d / F).write_text(t)
    print(name, d)
