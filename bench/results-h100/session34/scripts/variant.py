"""Edits an installed copy of dream's headers: python3 variant.py DIR NAME."""
import sys, re
d, name = sys.argv[1], sys.argv[2]
inc = f"{d}/dream/cuda/include/dream/"
def edit(f, old, new, count=1):
    s = open(inc + f).read()
    assert s.count(old) == count, (f, old, s.count(old))
    open(inc + f, "w").write(s.replace(old, new))
if "poll" in name:   # requesters poll their entry every ~1 us
    edit("fault.cuh", "            head = dream_ld_relaxed(&rt->serve->head);\n        if (!dream_wait_step(rt, t0)) {",
         "            head = dream_ld_relaxed(&rt->serve->head);\n        if (!dream_wait_step(rt, t0, 1024)) {")
if "srv" in name:    # idle servers poll every ~0.5 us
    edit("serve.cuh", "__nanosleep(64);", "__nanosleep(512);")
print("variant", name, "ok")
