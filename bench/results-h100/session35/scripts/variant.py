"""Copies the installed package to /tmp/v_<name> and edits its headers: measurement-only variants of the serial fault."""
import os, shutil, sys, dream
site = os.path.dirname(os.path.dirname(dream.__file__))
EDITS = {
 "noseq": [("fault.cuh", """    if (peers != 0xFFFFFFFFu || page == 0)
        return 0;""", """    if (true)
        return 0;""")],
 "nocount": [("fault.cuh", "const uint64_t t_start = need ? dream_now() : 0;", "const uint64_t t_start = 0;"),
             ("fault.cuh", "    if (loaded) {\n        dream_count(r.counters, DREAM_C_PAGES_IN, 1);", "    if (false) {\n        dream_count(r.counters, DREAM_C_PAGES_IN, 1);"),
             ("fault.cuh", "    if (need && !past) {\n        dream_count(r.counters, DREAM_C_FAULTS, 1);", "    if (false) {\n        dream_count(r.counters, DREAM_C_FAULTS, 1);")],
 "nostate": [("fault.cuh", """            if (do_rd) /* waiters may pin the frame from now on (Progress) */
                atomicExch((unsigned long long *)pte, dream_pte(DREAM_PTE_LOADING, (uint32_t)frame, g));""", ""),
             ("fault.cuh", """                    r.loaded[frame] = dream_ticks(); /* young (dream_ring_take) */
                    if (home)
                        atomicAdd(r.at_home, 1ull);""", "")],
 "nohomecas": [("fault.cuh", """    if (dream_cas_acquire(&r.ref[f], 0, DREAM_REF_LOCKED) != 0)
        return -1;
    if (r.owner[f] != DREAM_OWNER_NONE) { /* owner[f] is written only under f's lock */
        dream_add_release(&r.ref[f], -DREAM_REF_LOCKED);
        return -1;
    }""", """    r.ref[f] = DREAM_REF_LOCKED;"""),
               ("fault.cuh", """                        const uint64_t own = r.owner[fr];""", """                        const uint64_t own = home ? DREAM_OWNER_NONE : r.owner[fr];""")],
}
name = sys.argv[1]
out = f"/tmp/v_{name}"
shutil.rmtree(out, ignore_errors=True)
shutil.copytree(os.path.join(site, "dream"), os.path.join(out, "dream"))
for part in name.split("+"):
    for f, old, new in EDITS[part]:
        p = os.path.join(out, "dream/cuda/include/dream", f)
        s = open(p).read()
        assert s.count(old) == 1, (part, old[:60])
        open(p, "w").write(s.replace(old, new))
print(out)
