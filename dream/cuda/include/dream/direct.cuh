/* The `direct` transport: the faulting group (the warp, or one lane of
 * divergent code: sync.cuh dream_group_mask) copies the page itself between
 * pinned host memory (zero-copy, mapped into the GPU) and the frame. No queue,
 * no doorbell: each request is a 16-byte copy over the group's lanes with
 * eight loads in flight per lane and page (four in a build capped below 128
 * registers: DREAM_COPY_UNROLL), two pages at a time (a lone page as its
 * two halves).
 *
 * A lone lane reading a page (sm_90 on) has the Tensor Memory Accelerator
 * bring it instead, 4 KiB at a time, into a staging slot in shared memory
 * (dream_lone_read). Its own loads came one 16-byte piece per request, 16 in
 * flight: on an H100 a lone lane's 4 KiB took 37 us, and lone lanes of every
 * warp together moved 11 GB/s, where whole warps move 45; through the TMA,
 * 4.0 us and 51 GB/s (bench/results-h100/session27/lone.cu); in the fault
 * path, lone-lane faults 10.2 -> 45 GB/s, a lone lane's serial fault 31 ->
 * 10.4 us. Divergent kernels fault that way: BFS and CC, whose lanes walk
 * edge lists of their own lengths. The cost: 8 KiB of static shared memory
 * a block, and a whole warp's fault path, whose code it shares, about 0.4
 * us slower (vector add, a block per fault, cold: 0.291 -> 0.306 s). */
#pragma once
#include "dream/transport.cuh"

/* Staging slots of a block (4 KiB each, static shared memory of every
 * kernel built for `direct` that may fault), and their locks: slot s of
 * block b is taken by CAS 0 -> 1 of lock (b * SLOTS + s) % DREAM_DIRECT_LOCKS
 * in rt->transport (zeroed by the host). Blocks whose locks coincide only
 * wait for each other. */
#define DREAM_LONE_SLOTS 2
#define DREAM_LONE_BYTES 4096u

/* Reads `bytes` (a multiple of DREAM_LONE_BYTES) from pinned host memory at
 * `from` into the frame at `to`, for a lone lane: false when it could not
 * (no sm_90, or no slot free within the runtime's wait bound), and the
 * caller copies with its own loads. `status` is DREAM_IO_TIMEOUT when a bulk
 * copy did not complete in that bound (the slot then stays locked: the TMA
 * may still write it).
 * Protocol, per slot: the taker CASes its lock 0 -> 1 (then an acquire
 * fence: it follows the last holder's reads of the slot), initialises the
 * slot's mbarrier, fences the async proxy (fence.proxy.async, every state
 * space: the barrier's init and every earlier generic access to the slot
 * come before the TMA's writes, and the last write-back of the page to
 * pinned memory, which the claim's acquire ordered, before its read), arms the barrier for DREAM_LONE_BYTES and starts the bulk copy;
 * the barrier's phase completing makes the slot's bytes visible to the
 * waiter, who invalidates the barrier, copies them to the frame with its
 * own stores (ordered before the publish by dream_lone_io's fence, as the
 * warp's are by dream_transport_io's), and releases the lock (st.release: its reads of the slot
 * come before the next taker's CAS). */
__device__ __forceinline__ bool dream_lone_read(dream_rt_state *rt, uint4 *to, const uint4 *from,
                                                uint32_t bytes, const dream_io_req &r, int &status)
{
#if __CUDA_ARCH__ >= 900
    __shared__ __align__(128) uint4 slots[DREAM_LONE_SLOTS][DREAM_LONE_BYTES / 16];
    __shared__ __align__(8) uint64_t bars[DREAM_LONE_SLOTS];
    const uint64_t block = blockIdx.x + (uint64_t)gridDim.x * (blockIdx.y + (uint64_t)gridDim.y * blockIdx.z);
    uint32_t *const locks = (uint32_t *)rt->transport;
    const uint32_t first = (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) / 32;
    int s = -1;
    uint32_t *lock = nullptr;
    for (uint64_t t_wait = 0; s < 0;) {
        for (int k = 0; k < DREAM_LONE_SLOTS && s < 0; k++) {
            const int c = (int)((first + k) % DREAM_LONE_SLOTS);
            uint32_t *l = locks + (block * DREAM_LONE_SLOTS + c) % DREAM_DIRECT_LOCKS;
            if (atomicCAS(l, 0u, 1u) == 0u) {
                s = c;
                lock = l;
            }
        }
        if (s < 0 && !dream_wait_step(rt, t_wait))
            return false;
    }
    dream_fence_acquire();
    const uint32_t bar = (uint32_t)__cvta_generic_to_shared(&bars[s]);
    const uint32_t slot = (uint32_t)__cvta_generic_to_shared(slots[s]);
    for (uint32_t off = 0; off < bytes; off += DREAM_LONE_BYTES) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
        asm volatile("fence.proxy.async;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(DREAM_LONE_BYTES)
                     : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                         slot),
                     "l"((const uint8_t *)from + off), "r"(DREAM_LONE_BYTES), "r"(bar)
                     : "memory");
        /* bounded by time alone, not by the runtime's abort: a lane that
           left with its copy in flight could let its block end while the
           TMA still writes the block's shared memory */
        for (const uint64_t t0 = dream_now();;) {
            uint32_t landed;
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;"
                         " selp.u32 %0, 1, 0, p; }"
                         : "=r"(landed)
                         : "r"(bar)
                         : "memory");
            if (landed)
                break;
            if (dream_now() - t0 > rt->timeout_ns) {
                dream_wait_failed(rt, DREAM_WAIT_COMPLETION, r.slot, r.page);
                status = DREAM_IO_TIMEOUT;
                return true;
            }
            __nanosleep(64);
        }
        asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(bar) : "memory");
        uint4 *dst = (uint4 *)((uint8_t *)to + off);
#pragma unroll 16
        for (uint32_t k = 0; k < DREAM_LONE_BYTES / 16; k++)
            __stcg(dst + k, slots[s][k]);
    }
    asm volatile("st.release.gpu.u32 [%0], 0;" ::"l"(lock) : "memory");
    return true;
#else
    return false;
#endif
}

/* Loads a lane keeps in flight for each page a copy moves. A build capped
 * below 128 registers a thread (DREAM_REGISTER_CAP, compile.py: blocks of
 * more than 512 threads, a kernel's own --maxrregcount, or the count its
 * launch bounds left it, kernel.py) keeps 4: with 8 its fault path spilled
 * more of them, and cold vector add (3 GiB, H100) took 0.334-0.336 s in
 * 1,024-thread blocks (64 registers), 0.269-0.275 s in 768
 * (80) and 0.145-0.147 s in 640 (96), against 0.144-0.151, 0.154-0.161 and
 * 0.132-0.137 s with 4 (bench/results-h100/session29). The linked build
 * (128) keeps 8: with 4 its vector add took 0.160-0.195 s, against 0.148. */
#if defined(DREAM_REGISTER_CAP) && DREAM_REGISTER_CAP < 128
#define DREAM_COPY_UNROLL 4
#else
#define DREAM_COPY_UNROLL 8
#endif
/* Pages one copy loop moves together: a lane's loads from pinned host memory
 * wait a PCIe round trip (about 1.8 us on an H100), so a warp moves 32 lanes
 * x DREAM_COPY_UNROLL x 16 bytes per round trip; a fault that reads ahead
 * (fault.cuh) brings up to 32 pages in one call, which two at a time take
 * half as many round trips. Each page in flight holds 32 registers a lane. */
#define DREAM_COPY_PAGES 2
static_assert(DREAM_COPY_PAGES >= 2, "a lone page is copied as two halves");

/* Copies the first `pages` of from[] to to[] (n16 16-byte pieces each) over
 * the group's lanes, DREAM_COPY_UNROLL loads of each page in flight at once. */
__device__ __forceinline__ void dream_warp_copy(uint4 *const (&to)[DREAM_COPY_PAGES],
                                                const uint4 *const (&from)[DREAM_COPY_PAGES], int pages,
                                                uint32_t n16, uint32_t rank, uint32_t nlanes)
{
    /* a lane's loads in flight are `step` pieces apart: in a small group
       spread over the page, not side by side (H100, a lone lane's serial
       fault 37.8 -> 32.0 us). n16 is a power of two of at least 128 (pages
       of 4 KiB and more, halved), so DREAM_COPY_UNROLL steps cover it. */
    const uint32_t step = max(nlanes, n16 / DREAM_COPY_UNROLL);
    for (uint32_t k = rank; k < step; k += nlanes) {
        uint4 v[DREAM_COPY_PAGES][DREAM_COPY_UNROLL];
#pragma unroll
        for (int q = 0; q < DREAM_COPY_PAGES; q++)
#pragma unroll
            for (int u = 0; u < DREAM_COPY_UNROLL; u++) {
                const uint32_t j = k + u * step;
                if (q < pages && j < n16)
                    v[q][u] = __ldcg(from[q] + j);
            }
#pragma unroll
        for (int q = 0; q < DREAM_COPY_PAGES; q++)
#pragma unroll
            for (int u = 0; u < DREAM_COPY_UNROLL; u++) {
                const uint32_t j = k + u * step;
                if (q < pages && j < n16)
                    __stcg(to[q] + j, v[q][u]);
            }
    }
}

/* Early start (fault.cuh, dream_early_claim, dream_early_fill): a whole
 * warp's fault on one 4 KiB page, in a launch that evicts nothing (O6),
 * issues the page's loads (8 pieces a lane: the whole page) as soon as its
 * claim is won, and stores them once its home is taken (by the owner's CAS,
 * fault.cuh O7). The home's take then waits under the PCIe round trip
 * instead of before it. Sound only where no write-back runs while the
 * kernel does (O6): the backing then holds the page's data from the
 * kernel's start on, and the claim makes the warp its only loader. Not in a build capped below 128
 * registers (DREAM_COPY_UNROLL 4), where held loads would spill. A serial
 * fault (one warp, 2,000 pages, H100): 8.13-8.16 -> 7.28-7.38 us
 * (bench/results-h100/session37); 4.6-4.8 us taken apart from dream_fault's
 * general code (dream_fault_lone, session38); 3.7-3.8 us with the home taken
 * by the owner's CAS alone, not locked (session41). Held across the home's
 * take and nothing else (no call), the loads stay in registers; held across
 * the general frame take, whose paths call, ptxas spilled them, and the
 * spill's stores waited for the loads. */
#if DREAM_COPY_UNROLL == 8
#define DREAM_TRANSPORT_EARLY
struct dream_io_early {
    uint4 v[8];
};

/* Collective over the whole warp (`mask`, all 32 lanes): lane `from`'s page
 * at `src` (a byte address in pinned host memory), loaded. */
__device__ __forceinline__ dream_io_early dream_early_load(unsigned mask, uint64_t src, int from)
{
    dream_io_early x;
    const uint4 *q = (const uint4 *)__shfl_sync(mask, src, from) + dream_lane();
#pragma unroll
    for (int u = 0; u < 8; u++)
        x.v[u] = __ldcg(q + 32 * u);
    return x;
}

/* Collective over the whole warp: the loads stored into frame `to`, where
 * they land before the caller publishes it (as dream_transport_io's copies
 * do); counted in `counters`, the SM's shard. */
__device__ __forceinline__ void dream_early_store(const dream_io_early &x, uint8_t *to,
                                                  unsigned long long *counters)
{
    uint4 *const q = (uint4 *)to + dream_lane();
#pragma unroll
    for (int u = 0; u < 8; u++)
        __stcg(q + 32 * u, x.v[u]);
    __syncwarp();
    __threadfence();
    if (dream_lane() == 0)
        dream_count(counters, DREAM_C_REQUESTS, 1);
}
#endif

/* A lone lane's request (dream_transport_io): a read through the TMA where
 * it can, else the lane's own loads, as the warp's path would (a lone page
 * as its two halves). Apart from the warp's path, whose code stays as it
 * was; inlined, since as a call it slowed every warp's fault (vector add
 * cold 0.29 -> 0.41 s, H100). */
__device__ __forceinline__ int dream_lone_io(dream_rt_state *rt, bool active, const dream_io_req &r)
{
    if (!active)
        return DREAM_IO_OK;
    uint4 *const dev = (uint4 *)dream_frame_addr(rt, r.frame);
    uint4 *const host = (uint4 *)(rt->arrays[r.slot].backing + (r.page << rt->page_shift));
    const uint32_t n = (1u << rt->page_shift) >> 5; /* 16-byte pieces of half a page */
    int status = DREAM_IO_OK;
    if (r.dir != DREAM_IO_READ || !dream_lone_read(rt, dev, host, n << 5, r, status)) {
        uint4 *const to[DREAM_COPY_PAGES] = {r.dir == DREAM_IO_READ ? dev : host,
                                             (r.dir == DREAM_IO_READ ? dev : host) + n};
        const uint4 *const from[DREAM_COPY_PAGES] = {r.dir == DREAM_IO_READ ? host : dev,
                                                     (r.dir == DREAM_IO_READ ? host : dev) + n};
        dream_warp_copy(to, from, 2, n, 0, 1);
    }
    if (r.dir == DREAM_IO_WRITE)
        __threadfence_system();
    else
        __threadfence();
    dream_count(rt, DREAM_C_REQUESTS, 1);
    return status;
}

__device__ inline int dream_transport_io(dream_rt_state *rt, unsigned mask, bool active,
                                         const dream_io_req &r)
{
    if (dream_alone(mask))
        return dream_lone_io(rt, active, r);
    unsigned todo = dream_ballot(mask, active);
    const bool to_host = dream_any(mask, active && r.dir == DREAM_IO_WRITE);
    const uint32_t lane = dream_lane();
    const uint32_t rank = __popc(mask & ((1u << lane) - 1));
    const uint32_t nlanes = __popc(mask);
    const uint32_t n16 = (1u << rt->page_shift) >> 4;
    const uint32_t requests = __popc(todo);
    /* read now: after the fence it is a round trip to L2, which the warp
       waited for before its publish (0.13 us of a serial fault, H200) */
    unsigned long long *const counters = dream_counter_shard(rt->counters);
    while (todo) { /* todo is the group's: every lane takes the same turns */
        uint4 *to[DREAM_COPY_PAGES] = {};
        const uint4 *from[DREAM_COPY_PAGES] = {};
        int pages = 0;
#pragma unroll
        for (int q = 0; q < DREAM_COPY_PAGES; q++) {
            if (!todo)
                break;
            const int src = __ffs(todo) - 1;
            todo &= todo - 1;
            const uint64_t page = dream_shfl(mask, r.page, src);
            const uint32_t slot = dream_shfl(mask, r.slot, src);
            const uint32_t frame = dream_shfl(mask, r.frame, src);
            const uint32_t dir = dream_shfl(mask, r.dir, src);
            uint4 *host = (uint4 *)(rt->arrays[slot].backing + (page << rt->page_shift));
            uint4 *dev = (uint4 *)dream_frame_addr(rt, frame);
            to[q] = dir == DREAM_IO_READ ? dev : host;
            from[q] = dir == DREAM_IO_READ ? host : dev;
            pages++;
        }
        uint32_t n = n16;
        if (pages == 1) { /* a lone page: its halves in flight together (pages are >= 4 KiB) */
            n = n16 / 2;
            to[1] = to[0] + n;
            from[1] = from[0] + n;
            pages = 2;
        }
        dream_warp_copy(to, from, pages, n, rank, nlanes);
    }
    dream_syncwarp(mask);
    /* the copies land before the caller publishes the page; host writes must
       be visible to whoever reloads the page next */
    if (to_host)
        __threadfence_system();
    else
        __threadfence();
    if (lane == (uint32_t)(__ffs(mask) - 1)) /* after the fence, which would wait for it */
        dream_count(counters, DREAM_C_REQUESTS, requests);
    return DREAM_IO_OK;
}
