/* Page table + frame ring + fault path (DREAM section 3.3).
 *
 * An access pins the frame of its page for exactly as long as the access
 * runs: lanes of a warp on the same page elect one leader; the leader pins
 * the resident frame, or runs the fault loop below, where leaders of
 * different warps race on the page-table entry with a CAS and exactly one
 * loads the page while the others wait for VALID.
 *
 * Pins are per warp group and short: a warp's converged lanes hold at most one
 * frame at a time, and a thread at most one however its warp diverges, so
 * with at least as many frames as resident threads (checked at launch) a
 * leader always finds an unpinned frame; no wait is unbounded anyway
 * (dream_wait_step). A leader that cannot get a frame within a few ring
 * tickets gives its page-table claim back and retries, holding nothing. */
#pragma once
#include "dream/transport.cuh"

#define DREAM_RING_TRIES 64 /* ring tickets one attempt takes before backing off */

/* Pins the frame of a resident page. Returns the frame, or -1 with `e` the
 * entry seen (INVALID: free to claim; anything else: busy). */
__device__ __forceinline__ int dream_try_pin(dream_rt_state *rt, uint32_t *pte, uint32_t &e)
{
    e = dream_load_u32(pte);
    if ((e & DREAM_PTE_STATE_MASK) != DREAM_PTE_VALID)
        return -1;
    const uint32_t f = e >> DREAM_PTE_FRAME_SHIFT;
    const int old = atomicAdd(&rt->ref[f], 1);
    if (old >= 0 && dream_load_u32(pte) == e)
        return (int)f;
    atomicSub(&rt->ref[f], 1);
    e = DREAM_PTE_LOADING; /* it changed under us: retry, do not claim */
    return -1;
}

/* FIFO: takes the frame under the head cursor and locks it; pinned frames
 * are skipped. Returns -1 if none was free within DREAM_RING_TRIES tickets. */
__device__ inline int dream_ring_take(dream_rt_state *rt)
{
    for (int k = 0; k < DREAM_RING_TRIES; k++) {
        const uint64_t t = atomicAdd((unsigned long long *)&rt->head, 1ull);
        const uint32_t f = (uint32_t)(t % rt->nframes);
        if (atomicCAS(&rt->ref[f], 0, DREAM_REF_LOCKED) == 0) {
            __threadfence();
            return (int)f;
        }
        dream_count(rt, DREAM_C_FRAME_SKIPS, 1);
    }
    return -1;
}

__device__ __forceinline__ uint64_t dream_load_owner(const dream_rt_state *rt, uint32_t f)
{
    return *(const volatile uint64_t *)&rt->owner[f];
}

__device__ __forceinline__ uint32_t *dream_victim_pte(const dream_rt_state *rt, uint64_t owner)
{
    const uint32_t slot = (uint32_t)(owner >> DREAM_OWNER_PAGE_BITS);
    const uint64_t page = owner & ((1ull << DREAM_OWNER_PAGE_BITS) - 1);
    return rt->arrays[slot].pte + page;
}

/* The slow path, collective over `mask`: each lane with `need` resolves its
 * page and returns the frame it pinned, or -1 after recording an error. `e`
 * is the entry the fast path saw: an INVALID one is claimed at once. */
__device__ __noinline__ int dream_fault(dream_rt_state *rt, const dream_ptr_abi &p, uint64_t page,
                                        unsigned mask, bool need, uint32_t e)
{
    uint32_t *pte = p.pte + page;
    int frame = -1;
    bool done = !need, waited = false;
    uint32_t where = DREAM_WAIT_PAGE;
    uint64_t t_wait = 0;
    const uint64_t t_start = need ? dream_now() : 0;
    if (need)
        dream_count(rt, DREAM_C_FAULTS, 1);

    while (__any_sync(mask, !done)) {
        bool do_wb = false, do_rd = false;
        dream_io_req wb = {}, rd = {};
        uint32_t *vpte = nullptr;
        if (!done) {
            frame = e == DREAM_PTE_INVALID ? -1 : dream_try_pin(rt, pte, e);
            if (frame >= 0) {
                done = true;
                if (waited)
                    dream_count(rt, DREAM_C_COALESCED, 1);
            } else if ((e & DREAM_PTE_STATE_MASK) == DREAM_PTE_INVALID &&
                       atomicCAS(pte, e, DREAM_PTE_LOADING) == e) {
                const int f = dream_ring_take(rt);
                if (f < 0) {
                    atomicExch(pte, DREAM_PTE_INVALID); /* hold nothing while waiting */
                    where = DREAM_WAIT_FRAME;
                } else {
                    frame = f;
                    do_rd = true;
                    rd = {page, p.slot, (uint32_t)f, DREAM_IO_READ};
                    const uint64_t own = dream_load_owner(rt, f);
                    /* only the holder of the frame's lock reads owner and dirty,
                       so they can be set now, ahead of the transfer's fence */
                    rt->owner[f] = ((uint64_t)p.slot << DREAM_OWNER_PAGE_BITS) | page;
                    if (own != DREAM_OWNER_NONE) {
                        /* LOADING keeps pinners of the victim out until it is gone */
                        vpte = dream_victim_pte(rt, own);
                        atomicExch(vpte, DREAM_PTE_LOADING);
                        if (dream_load_u32(&rt->dirty[f])) {
                            do_wb = true;
                            wb = {own & ((1ull << DREAM_OWNER_PAGE_BITS) - 1),
                                  (uint32_t)(own >> DREAM_OWNER_PAGE_BITS), (uint32_t)f,
                                  DREAM_IO_WRITE};
                        } else {
                            atomicExch(vpte, DREAM_PTE_INVALID);
                            dream_count(rt, DREAM_C_EVICTIONS, 1);
                        }
                    }
                }
            } else {
                waited = true;
                where = DREAM_WAIT_PAGE;
            }
        }

        if (__any_sync(mask, do_wb)) {
            const int s = dream_transport_io(rt, mask, do_wb, wb);
            if (do_wb) {
                if (s == DREAM_IO_OK) {
                    rt->dirty[frame] = 0;
                    atomicExch(vpte, DREAM_PTE_INVALID);
                    dream_count(rt, DREAM_C_EVICTIONS, 1);
                    dream_count(rt, DREAM_C_WRITEBACKS, 1);
                    dream_count(rt, DREAM_C_BYTES_OUT, 1ull << rt->page_shift);
                } else {
                    /* The victim's only current copy is the frame: keep it
                     * resident and dirty. After a timeout the request may
                     * still be in flight, so the frame stays locked. */
                    rt->owner[frame] = ((uint64_t)wb.slot << DREAM_OWNER_PAGE_BITS) | wb.page;
                    if (s == DREAM_IO_ERROR) {
                        atomicExch(vpte, DREAM_PTE_VALID | ((uint32_t)frame << DREAM_PTE_FRAME_SHIFT));
                        __threadfence();
                        atomicAdd(&rt->ref[frame], -DREAM_REF_LOCKED);
                    }
                    atomicExch(pte, DREAM_PTE_INVALID);
                    do_rd = false;
                    done = true;
                    frame = -1;
                }
            }
        }

        if (__any_sync(mask, do_rd)) {
            const int s = dream_transport_io(rt, mask, do_rd, rd);
            if (do_rd) {
                if (s == DREAM_IO_OK) {
                    /* the transport fenced the data (and owner) before returning */
                    atomicAdd(&rt->ref[frame], 1 - DREAM_REF_LOCKED); /* unlock, pinned by us */
                    atomicExch(pte, DREAM_PTE_VALID | ((uint32_t)frame << DREAM_PTE_FRAME_SHIFT));
                    dream_count(rt, DREAM_C_PAGES_IN, 1);
                    dream_count(rt, DREAM_C_BYTES_IN, 1ull << rt->page_shift);
                } else {
                    /* The frame holds nothing valid; after a timeout the
                     * transfer may still land, so the frame stays locked. */
                    rt->owner[frame] = DREAM_OWNER_NONE;
                    if (s == DREAM_IO_ERROR) {
                        __threadfence();
                        atomicAdd(&rt->ref[frame], -DREAM_REF_LOCKED);
                    }
                    atomicExch(pte, DREAM_PTE_INVALID);
                    frame = -1;
                }
                done = true;
            }
        }

        e = DREAM_PTE_LOADING; /* from now on, read the entry afresh */
        if (!done && !dream_wait_step(rt, t_wait)) {
            dream_wait_failed(rt, where, p.slot, page);
            done = true;
            frame = -1;
        }
    }
    if (need)
        dream_count(rt, DREAM_C_WAIT_NS, dream_now() - t_start);
    return frame;
}

/* Runs f(T *) on element i of the array behind p with its page pinned.
 * The lanes that arrive together take their distinct pages one at a time,
 * all of them in every step (uniform control flow: no lane runs ahead into
 * another access while its warp-mates are still in this one): the page's
 * leader pins it or faults it in with the whole warp's help, its lanes run f,
 * the warp syncs, the leader unpins. Returns false, with the error recorded,
 * when the access could not be made (bounds, type, failed fault); memory is
 * then untouched. */
template <class T, class F>
__device__ __forceinline__ bool dream_access(const dream_ptr_abi &p, uint64_t i, bool write, F f)
{
    dream_rt_state *rt = p.rt;
    if (sizeof(T) != p.elem_size) {
        dream_fail(rt, DREAM_ERR_TYPE, p.slot, i, 0, 0, (uint32_t)sizeof(T), p.elem_size);
        return false;
    }
    if (i >= p.n) {
        dream_fail(rt, DREAM_ERR_BOUNDS, p.slot, i, 0, 0);
        return false;
    }
    const uint64_t byte = i * sizeof(T);
    const uint64_t page = byte >> p.page_shift;
    const uint64_t off = byte & ((1ull << p.page_shift) - 1);
    const unsigned long long key = (unsigned long long)(p.pte + page);
    const unsigned mask = __activemask();
    const int lane = (int)dream_lane();
    bool done = false;
    for (unsigned todo = mask; todo;) {
        const int leader = __ffs(todo) - 1;
        const bool mine = key == __shfl_sync(mask, key, leader);
        const unsigned peers = __ballot_sync(mask, mine);
        int frame = -1;
        uint32_t e = 0;
        if (lane == leader) {
            frame = dream_try_pin(rt, p.pte + page, e);
            if (frame >= 0)
                dream_count(rt, DREAM_C_HITS, 1);
        }
        const bool need = lane == leader && frame < 0;
        if (__any_sync(mask, need)) {
            const int got = dream_fault(rt, p, page, mask, need, e);
            if (need)
                frame = got;
        }
        frame = __shfl_sync(mask, frame, leader);
        if (mine && frame >= 0) {
            f((T *)(dream_frame_addr(rt, (uint32_t)frame) + off));
            done = true;
        }
        __syncwarp(mask);
        if (lane == leader && frame >= 0) {
            if (write) {
                rt->dirty[frame] = 1;
                __threadfence(); /* the group's writes before the unpin an evictor sees */
            }
            atomicSub(&rt->ref[frame], 1);
        }
        todo &= ~peers;
    }
    /* After a timeout the runtime is aborted and no page can come in: end
       this thread rather than let the kernel run on through failing accesses. */
    if (!done && dream_load_u32(&rt->abort))
        asm volatile("exit;");
    return done;
}
