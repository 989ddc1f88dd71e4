"""/tmp/v_mut: the installed package with the early start's source one page off (the new test must fail on it)."""
import os, shutil, dream
site = os.path.dirname(os.path.dirname(dream.__file__))
out = "/tmp/v_mut"
shutil.rmtree(out, ignore_errors=True)
shutil.copytree(os.path.join(site, "dream"), os.path.join(out, "dream"))
p = os.path.join(out, "dream/cuda/include/dream/fault.cuh")
s = open(p).read()
old = "? rt->arrays[p.slot].backing + (page << 12)"
assert s.count(old) == 1
open(p, "w").write(s.replace(old, "? rt->arrays[p.slot].backing + ((page ^ 1) << 12)"))
print(out)
