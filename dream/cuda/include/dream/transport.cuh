/* The transport interface: the only thing the page table and the frame ring
 * know of the backend that moves pages.
 *
 * Every backend header defines
 *
 *   __device__ int dream_transport_io(dream_rt_state *rt, unsigned mask,
 *                                     bool active, const dream_io_req &r);
 *
 * collective over the lanes in `mask` (all of them call it, converged); each
 * lane with `active` set brings one request. A read fills frame r.frame from
 * page r.page of array r.slot; a write copies the frame back. It returns the
 * lane's status once its request has completed (inactive lanes get
 * DREAM_IO_OK). Every wait inside it is bounded by dream_wait_step; on an
 * error or timeout the backend records the details with dream_fail first.
 *
 * One collective call lets each backend batch as it likes: `direct` copies
 * the pages with the whole warp, queue backends post one request per active
 * lane and ring one doorbell for the run. */
#pragma once
#include "dream/sync.cuh"

#define DREAM_IO_READ 0u  /* backing -> frame */
#define DREAM_IO_WRITE 1u /* frame -> backing */

#define DREAM_IO_OK 0
#define DREAM_IO_ERROR 1   /* completed with an error: nothing more will land */
#define DREAM_IO_TIMEOUT 2 /* no completion in time: the request may still land */

struct dream_io_req {
    uint64_t page;
    uint32_t slot;
    uint32_t frame;
    uint32_t dir;
    uint32_t ahead; /* a read no access waits on yet (read ahead or gathered: fault.cuh). If
                       it fails, a transport whose commands fail one by one (nvme) records
                       no error: the page stays absent, and a fault on it reports. (A failed
                       RDMA read errors its queue pair, so rnic records it.) */
};

__device__ __forceinline__ uint8_t *dream_frame_addr(const dream_rt_state *rt, uint32_t frame)
{
    return rt->frames + ((uint64_t)frame << rt->page_shift);
}
