/* Warp and timing primitives, counters and the error record, shared by the
 * fault path and every transport. */
#pragma once
#include "dream/abi.h"

__device__ __forceinline__ uint32_t dream_lane()
{
    uint32_t l;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
    return l;
}

__device__ __forceinline__ uint32_t dream_smid()
{
    uint32_t s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

/* Nanoseconds, the same clock on every SM. */
__device__ __forceinline__ uint64_t dream_now()
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ uint32_t dream_load_u32(const uint32_t *p)
{
    return *(const volatile uint32_t *)p;
}

__device__ __forceinline__ void dream_count(const dream_rt_state *rt, int c, uint64_t v)
{
    unsigned long long *base = (unsigned long long *)rt->counters;
    atomicAdd(base + (dream_smid() % DREAM_COUNTER_SHARDS) * DREAM_NCOUNTERS + c,
              (unsigned long long)v);
}

/* Records an error; the first one keeps its details, later ones are counted. */
__device__ inline void dream_fail(dream_rt_state *rt, uint32_t code, uint32_t slot,
                                  uint64_t index, uint64_t page, uint32_t where,
                                  uint32_t d0 = 0, uint32_t d1 = 0, uint32_t d2 = 0,
                                  uint32_t d3 = 0)
{
    dream_error *e = rt->error;
    atomicAdd(&e->count, 1u);
    if (atomicCAS(&e->code, DREAM_ERR_NONE, code) != DREAM_ERR_NONE)
        return;
    e->slot = slot;
    e->where = where;
    e->index = index;
    e->page = page;
    e->block[0] = blockIdx.x; e->block[1] = blockIdx.y; e->block[2] = blockIdx.z;
    e->thread[0] = threadIdx.x; e->thread[1] = threadIdx.y; e->thread[2] = threadIdx.z;
    e->detail[0] = d0; e->detail[1] = d1; e->detail[2] = d2; e->detail[3] = d3;
    __threadfence_system();
}

/* One step of a bounded wait. `t0` starts at 0. Returns false when the wait
 * must end: the runtime was aborted by an earlier timeout, or this wait ran
 * past rt->timeout_ns; the caller then calls dream_wait_failed. */
__device__ __forceinline__ bool dream_wait_step(dream_rt_state *rt, uint64_t &t0)
{
    if (dream_load_u32(&rt->abort))
        return false;
    uint64_t now = dream_now();
    if (t0 == 0)
        t0 = now;
    else if (now - t0 > rt->timeout_ns)
        return false;
    __nanosleep(64);
    return true;
}

/* A wait gave up: record the timeout (unless the runtime was already aborted
 * by another one) and abort the runtime so that every other wait ends too. */
__device__ inline void dream_wait_failed(dream_rt_state *rt, uint32_t where, uint32_t slot,
                                         uint64_t page, uint32_t d0 = 0, uint32_t d1 = 0,
                                         uint32_t d2 = 0)
{
    if (!dream_load_u32(&rt->abort))
        dream_fail(rt, DREAM_ERR_TIMEOUT, slot, 0, page, where, d0, d1, d2);
    atomicExch(&rt->abort, 1u);
}
