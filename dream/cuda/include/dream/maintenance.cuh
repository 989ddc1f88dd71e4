/* Runtime kernels launched by the host between user kernels: write dirty
 * frames back (flush) and drop an array's pages from the ring (invalidate).
 * One lane per frame; the write-backs go through the transport, so every
 * backend flushes the same way. */
#pragma once
#include "dream/dream.cuh"

#define DREAM_ALL_SLOTS 0xFFFFFFFFu
#define DREAM_FLUSH_WRITE 1u /* write dirty frames back */
#define DREAM_FLUSH_DROP 2u  /* unmap the pages (dirty ones only once written, unless not writing) */

/* For each frame owned by `slot` (or any array), as `how` says. A failed
 * write-back keeps the page resident and dirty (recorded in the error record). */
extern "C" __global__ void dream_flush(dream_rt_state *rt, uint32_t slot, uint32_t how)
{
    const uint64_t warps = (uint64_t)gridDim.x * blockDim.x / 32;
    const uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const uint32_t lane = dream_lane();
    for (uint64_t base = warp * 32; base < rt->nframes; base += warps * 32) {
        const uint64_t f = base + lane;
        bool mine = false;
        uint64_t own = DREAM_OWNER_NONE;
        if (f < rt->nframes) {
            own = rt->owner[f];
            mine = own != DREAM_OWNER_NONE &&
                   (slot == DREAM_ALL_SLOTS || dream_owner_slot(own) == slot);
            /* no user kernel runs, so an owned frame is unpinned unless a
               timed-out request left it locked: leave that one alone */
            mine = mine && atomicCAS(&rt->ref[f], 0, DREAM_REF_LOCKED) == 0;
        }
        const bool wb = mine && (how & DREAM_FLUSH_WRITE) && rt->dirty[f];
        dream_io_req r = {dream_owner_page(own), dream_owner_slot(own), (uint32_t)f, DREAM_IO_WRITE};
        const int s = dream_transport_io(rt, 0xFFFFFFFFu, wb, r);
        if (mine) {
            if (wb && s == DREAM_IO_OK) {
                rt->dirty[f] = 0;
                dream_count(rt, DREAM_C_WRITEBACKS, 1);
                dream_count(rt, DREAM_C_BYTES_OUT, 1ull << rt->page_shift);
            }
            if ((how & DREAM_FLUSH_DROP) && (!wb || s == DREAM_IO_OK)) {
                rt->owner[f] = DREAM_OWNER_NONE;
                rt->dirty[f] = 0;
                rt->loaded[f] = 0; /* an empty frame is never young */
                dream_count_home(rt, dream_owner_slot(own), dream_owner_page(own), (uint32_t)f, -1);
                uint64_t *pte = dream_owner_pte(rt, own);
                atomicExch((unsigned long long *)pte, dream_pte(DREAM_PTE_INVALID, 0, dream_pte_gen(*pte)));
            }
            if (s != DREAM_IO_TIMEOUT)
                atomicAdd(&rt->ref[f], -DREAM_REF_LOCKED);
        }
    }
}
