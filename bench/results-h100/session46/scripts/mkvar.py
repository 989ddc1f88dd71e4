import shutil, sys
from pathlib import Path
src = Path("dream/cuda/include")
F = "dream/fault.cuh"
read_chk = """    if (!dream_access_ok<T>(p, i))
        return T();
    if (dream_at_home(p)) {
        const T *q = (const T *)(p.home + i * sizeof(T));
        __builtin_assume(__isGlobal(q)); /* LDG, not a generic LD */
        return *q;
    }
"""
read_nochk = """    if (dream_at_home(p)) {
        const T *q = (const T *)(p.home + i * sizeof(T));
        __builtin_assume(__isGlobal(q)); /* LDG, not a generic LD */
        return *q;
    }
    if (!dream_access_ok<T>(p, i))
        return T();
"""
write_chk = """    dream_done<T> r = {T(), false, 0};
    if (!dream_access_ok<T>(p, i))
        return r;
    if (dream_at_home(p)) {"""
write_nochk = """    dream_done<T> r = {T(), false, 0};
    if (dream_at_home(p)) {"""
write_nochk_tail = """        r.done = true;
        return r;
    }
#ifdef DREAM_RESIDENT_KERNEL
    __builtin_unreachable();
#else
    dream_rt_state *rt = p.rt;"""
dirty = """        if (h.pte != (uint64_t)(p.pte + page)) { /* the thread's first write to the page (its hint) */
            dream_mark_dirty(p.home_dirty + page);
            h.pte = (uint64_t)(p.pte + page);
        }
"""
st = "    __stcg((B *)p, b);\n}"
variants = {"nocheck": ["chk"], "nodirty": ["dirty"], "plainst": ["st"], "all": ["chk", "dirty", "st"]}
for name, parts in variants.items():
    d = Path(".b/v") / name
    shutil.copytree(src, d)
    t = (d / F).read_text()
    def rep(a, b):
        global t
        assert t.count(a) == 1, (name, a[:60])
        t = t.replace(a, b)
    if "chk" in parts:
        rep(read_chk, read_nochk)
        rep(write_chk, write_nochk)
        rep(write_nochk_tail, write_nochk_tail.replace("    dream_rt_state *rt = p.rt;", "    if (!dream_access_ok<T>(p, i))\n        return r;\n    dream_rt_state *rt = p.rt;"))
    if "dirty" in parts:
        rep(dirty, "")
    if "st" in parts:
        rep(st, "    *(B *)p = b;\n}")
    (d / F).write_text(t)
    print(name, "ok")
