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

if "ldg" in name and "bf" not in name:    # reads of an array at home through the read-only cache, as invariant loads
    edit("fault.cuh", """        const T *q = (const T *)(p.home + i * sizeof(T));
        __builtin_assume(__isGlobal(q)); /* LDG, not a generic LD */
        return *q;""", """        const T *q = (const T *)(p.home + i * sizeof(T));
        typedef typename dream_bits_t<sizeof(T)>::type B;
        const B b = __ldg((const B *)q);
        T v;
        memcpy(&v, &b, sizeof(T));
        return v;""")
if "nodirty" in name:  # writes of an array at home mark nothing dirty (wrong: measures the mark's cost)
    edit("fault.cuh", """        if (h.pte != (uint64_t)(p.pte + page)) { /* the thread's first write to the page (its hint) */
            dream_mark_dirty(p.home_dirty + page);""", """        if (false) {
            dream_mark_dirty(p.home_dirty + page);""")
print("variant", name, "edited")
if "bf" in name:   # the resident build's read: branch-free check, an unconditional load of element i or 0
    edit("fault.cuh", """template <class T> __device__ __forceinline__ T dream_read(const dream_ptr_abi &p, uint64_t i, dream_hint &h)
{
    if (!dream_access_ok<T>(p, i))
        return T();""", """template <class T> __device__ __forceinline__ T dream_read(const dream_ptr_abi &p, uint64_t i, dream_hint &h)
{
#ifdef DREAM_RESIDENT_KERNEL
    {
        const bool ok = sizeof(T) == p.elem_size && i < p.n;
        const T *q = (const T *)(p.home + (ok ? i : 0) * sizeof(T));
        LOADQ
        if (__builtin_expect(!ok, 0))
            dream_access_ok<T>(p, i);
        return ok ? v : T();
    }
#endif
    if (!dream_access_ok<T>(p, i))
        return T();""")
    s = open(inc + "fault.cuh").read()
    load = ("typedef typename dream_bits_t<sizeof(T)>::type B; const B b = __ldg((const B *)q); T v; memcpy(&v, &b, sizeof(T));"
            if "ldg" in name else "__builtin_assume(__isGlobal(q)); const T v = *q;")
    if "asm" in name:
        load = ('static_assert(sizeof(T) == 4, "variant: 4-byte elements"); unsigned b; '
                'asm("ld.global.nc.b32 %0, [%1];" : "=r"(b) : "l"(q)); T v; memcpy(&v, &b, 4);')
    open(inc + "fault.cuh", "w").write(s.replace("LOADQ", load))
