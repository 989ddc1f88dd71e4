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

/* The lanes an access works with as one group: the whole warp when all of it
 * is here (converged user code), else the calling lane alone.
 *
 * Why not __activemask() as it comes: in divergent user code it gives groups
 * of a few lanes, several per warp, each with its own mask, running the same
 * device functions. Collectives over such masks broke under independent
 * thread scheduling on an H100 (nvcc 13, tests/test_stress_gpu.py): votes
 * counted lanes of another group merged into the active lanes at a yield
 * point (ptxas, having checked a mask once, votes over whatever is active),
 * and a lane of a 2- or 3-lane group was still copying its share of a page
 * when its group had passed the __syncwarp after the copy, so the page was
 * published, and its frame refilled, without that share (corrupted pages:
 * every 2nd or 3rd 16-byte piece another page's). A group of one lane has no
 * other lane to wait for; a whole warp has no other group to merge with. One-
 * lane groups still merge with each other, so every vote of the fault path is
 * masked below (tests/test_warp_gpu.py shows raw ones counting foreign lanes),
 * and a one-lane group's collectives run no warp-synchronous instruction at
 * all (dream_alone). */
__device__ __forceinline__ unsigned dream_group_mask()
{
    const unsigned m = __activemask();
    return m == 0xFFFFFFFFu ? m : 1u << dream_lane();
}

/* Whether the group `mask` is one lane (divergent code, dream_group_mask).
 * Its collectives below are then the lane's own values, with no warp-
 * synchronous instruction at all: in divergent code every active lane is a
 * group of its own, and a WARPSYNC, vote or shuffle per lane, each with its
 * own mask, may leave them running apart (the lanes of a warp in the fault
 * path did not overlap their round trips on an H100: 31 lanes faulting 31
 * pages took 67 us, one lane alone 32 us; bench/results-h100/session16). */
__device__ __forceinline__ bool dream_alone(unsigned mask)
{
    return (mask & (mask - 1)) == 0;
}

/* Warp votes over the lanes of `mask`, and only those. */
__device__ __forceinline__ unsigned dream_ballot(unsigned mask, bool p)
{
    if (dream_alone(mask))
        return p ? mask : 0u;
    return __ballot_sync(mask, p) & mask;
}

__device__ __forceinline__ bool dream_any(unsigned mask, bool p)
{
    return dream_ballot(mask, p) != 0;
}

__device__ __forceinline__ unsigned dream_match_any(unsigned mask, unsigned long long v)
{
    if (dream_alone(mask))
        return mask;
    return __match_any_sync(mask, v) & mask;
}

/* Lane src's v, src a lane of `mask`. */
template <class T> __device__ __forceinline__ T dream_shfl(unsigned mask, T v, int src)
{
    if (dream_alone(mask))
        return v;
    return __shfl_sync(mask, v, src);
}

/* The group's accesses before this point are seen by its lanes after it. */
__device__ __forceinline__ void dream_syncwarp(unsigned mask)
{
    if (!dream_alone(mask))
        __syncwarp(mask);
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

/* dream_now in 1.024 us ticks, wrapping (differences of two are exact over 73 minutes) */
__device__ __forceinline__ uint32_t dream_ticks()
{
    return (uint32_t)(dream_now() >> 10);
}

__device__ __forceinline__ uint32_t dream_load_u32(const uint32_t *p)
{
    return *(const volatile uint32_t *)p;
}

/* Memory-ordered operations at GPU scope, for the page table and the frame
 * ring (fault.cuh states the protocol they implement). Each is one PTX
 * instruction with a "memory" clobber, so neither the compiler nor ptxas moves
 * other memory accesses across it in the direction its order forbids. */
__device__ __forceinline__ uint32_t dream_ld_acquire(const uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ uint32_t dream_ld_relaxed(const uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ uint64_t dream_ld_acquire(const uint64_t *p)
{
    uint64_t v;
    asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ uint64_t dream_ld_relaxed(const uint64_t *p)
{
    uint64_t v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

/* At system scope, for memory the host writes or reads while a kernel runs
 * (the copy kernel's rings in pinned host memory, copier.cuh): never served
 * from a cached copy. */
__device__ __forceinline__ uint64_t dream_ld_acquire_sys(const uint64_t *p)
{
    uint64_t v;
    asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ uint64_t dream_ld_relaxed_sys(const uint64_t *p)
{
    uint64_t v;
    asm volatile("ld.relaxed.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ void dream_st_relaxed_sys(uint64_t *p, uint64_t v)
{
    asm volatile("st.relaxed.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

/* O6's entry: relaxed at CTA scope, which this SM's L1 may serve (a GPU-scope
 * load goes to L2). No "memory" clobber: the access it gives is ordered by
 * its address alone (fault.cuh O6). */
__device__ __forceinline__ uint64_t dream_ld_sm(const uint64_t *p)
{
    uint64_t v;
    asm volatile("ld.relaxed.cta.global.u64 %0, [%1];" : "=l"(v) : "l"(p));
    return v;
}

/* Returns the old value; later accesses are ordered after it. */
__device__ __forceinline__ int32_t dream_add_acquire(int32_t *p, int32_t v)
{
    int32_t old;
    asm volatile("atom.add.acquire.gpu.global.s32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}

/* Earlier accesses (and those the thread has seen through a barrier) are
 * ordered before it. */
__device__ __forceinline__ void dream_add_release(int32_t *p, int32_t v)
{
    asm volatile("red.release.gpu.global.add.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/* A CAS whose later accesses are ordered after it (an acquire: on sm_90 the
 * atomic and an L1 invalidation, no fence). */
__device__ __forceinline__ uint32_t dream_cas_acquire(uint32_t *p, uint32_t expect, uint32_t v)
{
    uint32_t old;
    asm volatile("atom.acquire.gpu.global.cas.b32 %0, [%1], %2, %3;"
                 : "=r"(old)
                 : "l"(p), "r"(expect), "r"(v)
                 : "memory");
    return old;
}

/* Earlier accesses (and those the thread has seen) are ordered before it. */
__device__ __forceinline__ void dream_st_release(uint32_t *p, uint32_t v)
{
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/* After a relaxed atomic that succeeded: makes it an acquire (a CAS that
 * fails, the common case under contention, then pays no fence). */
__device__ __forceinline__ void dream_fence_acquire()
{
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
}

/* This SM's shard of the runtime's counters at `base` (rt->counters). */
__device__ __forceinline__ unsigned long long *dream_counter_shard(uint64_t *base)
{
    return (unsigned long long *)base + (dream_smid() % DREAM_COUNTER_SHARDS) * DREAM_NCOUNTERS;
}

/* Adds v to counter c of a shard (dream_counter_shard): a global atomic, not
 * a generic one with a shared-memory branch (the counters are device
 * memory). */
__device__ __forceinline__ void dream_count(unsigned long long *shard, int c, uint64_t v)
{
    __builtin_assume(__isGlobal(shard));
    atomicAdd(shard + c, (unsigned long long)v);
}

__device__ __forceinline__ void dream_count(const dream_rt_state *rt, int c, uint64_t v)
{
    dream_count(dream_counter_shard(rt->counters), c, v);
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
 * past rt->timeout_ns; the caller then calls dream_wait_failed. The abort
 * word is read only once a wait has lasted DREAM_WAIT_QUIET_NS: a short
 * wait's steps (a request's CQE poll) then cost one round trip to L2, not
 * two (softrnic serial fault, H100, session 43: about -0.15 us). */
#define DREAM_WAIT_QUIET_NS 4096u
__device__ __forceinline__ bool dream_wait_step(dream_rt_state *rt, uint64_t &t0,
                                                unsigned sleep_ns = 64)
{
    const uint64_t now = dream_now();
    if (t0 == 0)
        t0 = now;
    else if (now - t0 > rt->timeout_ns)
        return false;
    if (now - t0 > DREAM_WAIT_QUIET_NS && dream_load_u32(&rt->abort))
        return false;
    __nanosleep(sleep_ns);
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
