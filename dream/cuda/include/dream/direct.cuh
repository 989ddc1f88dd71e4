/* The `direct` transport: the faulting group (the warp, or one lane of
 * divergent code: sync.cuh dream_group_mask) copies the page itself between
 * pinned host memory (zero-copy, mapped into the GPU) and the frame. No queue,
 * no doorbell: each request is a 16-byte copy over the group's lanes with
 * eight loads in flight per lane and page, two pages at a time (a lone page
 * as its two halves: a one-lane group, in divergent code, then has sixteen
 * loads in flight, not eight). */
#pragma once
#include "dream/transport.cuh"

#define DREAM_COPY_UNROLL 8
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
       of 4 KiB and more, halved), so 8 steps cover it. */
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

__device__ inline int dream_transport_io(dream_rt_state *rt, unsigned mask, bool active,
                                         const dream_io_req &r)
{
    unsigned todo = dream_ballot(mask, active);
    const bool to_host = dream_any(mask, active && r.dir == DREAM_IO_WRITE);
    const uint32_t lane = dream_lane();
    const uint32_t rank = __popc(mask & ((1u << lane) - 1));
    const uint32_t nlanes = __popc(mask);
    const uint32_t n16 = (1u << rt->page_shift) >> 4;
    const uint32_t requests = __popc(todo);
    /* read now: after the fence it is a round trip to L2, which the warp
       waited for before its publish (0.13 us of a serial fault, H200) */
    uint64_t *const counters = rt->counters;
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
