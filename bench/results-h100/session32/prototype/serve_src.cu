

extern "C" __global__ void serve(dream_ptr<int> a0, dream_ptr<int> a1, dream_ptr<int> a2, dream_ptr<int> a3)
{
#ifndef DREAM_RESIDENT_KERNEL
    const unsigned lane = threadIdx.x % 32;
    for (;;) {
        unsigned long long v = 0;
        if (lane == 0) {
            const unsigned long long h = atomicAdd(&dream_serve.head, 1ull);
            const unsigned lap = (h / DREAM_SERVE_SLOTS + 1) & 0xFFFF;
            for (;;) {
                asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(&dream_serve.req[h % DREAM_SERVE_SLOTS]) : "memory");
                if ((v & 0xFFFF) == lap)
                    break;
                if (*(volatile unsigned long long *)&dream_serve.stop) {
                    v = ~0ull;
                    break;
                }
                __nanosleep(32);
            }
        }
        v = __shfl_sync(~0u, v, 0);
        if (v == ~0ull)
            return;
        const unsigned slot = (unsigned)(v >> 56);
        const unsigned long long page = (v >> 16) & 0xFFFFFFFFFFull;
        const dream_ptr_abi p = slot == a0.a.slot ? a0.a : slot == a1.a.slot ? a1.a : slot == a2.a.slot ? a2.a : a3.a;
        const uint64_t e = dream_ld_relaxed(p.pte + page);
        const int f = dream_fault(p.rt, p, page, ~0u, lane == 0, e, 0, false, false);
        if (lane == 0 && f >= 0)
            atomicSub(&p.rt->ref[f], 1);
    }
#endif
}
