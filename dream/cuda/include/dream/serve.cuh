/* The fault servers (fault.cuh O8): the warps of a persistent kernel that
 * load the pages a served build's misses ask for, beside the user's kernel,
 * for as long as it runs (a daemon: daemon.h, runtime/serve.py).
 *
 * Each warp in turn takes a ticket from the queue's head (abi.h
 * dream_serve_queue), waits for its slot's request, frees the slot, and, if
 * the page's entry still carries the request bit, runs dream_fault for it
 * with the whole warp (lane 0 the need lane, the others reading ahead by the
 * requester's stride, or past a page loaded just before: dream_ahead_stride);
 * for a request past a marked page, dream_fault reads ahead past it.
 * fault.cuh O8 gives the protocol. The runtime launches it only in O6, so a
 * request is served with O6's flags: a load takes a free frame, its home
 * first (O7). A warp that finds its slot empty checks every
 * DREAM_SERVE_CHECK_EVERY polls the queue's stop, which the host sets after
 * the user's kernel ended, and its deadline; it leaves once stop is set and
 * its slot holds no request. Stop is a word of the queue in device memory,
 * not daemon.h's in host memory: 264 idle warps reading host memory every
 * 256 polls made a serial fault 394 us against 8.3 with 4 warps (H200),
 * their reads queued before the page's. */
#pragma once
#include "dream/daemon.cuh"
#include "dream/fault.cuh"

#define DREAM_SERVE_THREADS 128    /* a block's threads: four server warps */
#define DREAM_SERVE_CHECK_EVERY 16 /* polls of an empty slot between checks of stop and the deadline */

/* The dream_ptr_abi an O6 launch passes for array `slot` (array.py,
 * kernel_arg), or false if the request names no page of a live array (a
 * dream bug). */
__device__ inline bool dream_serve_ptr(dream_rt_state *rt, uint32_t slot, uint64_t page, dream_ptr_abi &p)
{
    if (slot >= rt->n_slots)
        return false;
    const dream_array_desc &a = rt->arrays[slot];
    if (!a.pte || page >= a.n_pages)
        return false;
    p.rt = rt;
    p.pte = a.pte;
    p.n = a.n_elems;
    p.page_shift = rt->page_shift;
    p.slot = slot;
    p.elem_size = a.elem_size;
    p.flags = DREAM_PTR_NO_EVICT | DREAM_AHEAD_MAX << DREAM_PTR_AHEAD_SHIFT; /* Runtime._launch_flags in O6 */
    p.frames = rt->frames;
    const bool home = a.flags & DREAM_ARRAY_HOME;
    p.home = home ? rt->frames + ((uint64_t)a.home_frame << rt->page_shift) : nullptr;
    p.home_dirty = home ? rt->dirty + a.home_frame : nullptr;
    return true;
}

extern "C" __global__ void __launch_bounds__(DREAM_SERVE_THREADS)
    dream_serve(dream_daemon_ctl *ctl, dream_rt_state *rt, uint64_t life_ns)
{
    const uint32_t lane = dream_lane();
    dream_serve_queue *q = rt->serve;
    const uint64_t n = rt->nframes;
    uint64_t *seqs = (uint64_t *)(q + 1);
    dream_serve_req *reqs = (dream_serve_req *)(seqs + n);
    const uint64_t deadline = dream_now() + life_ns;
    if (threadIdx.x == 0)
        dream_daemon_started(ctl);
    for (;;) {
        uint64_t what = 0, prev = 0;
        int leave = 0;
        if (lane == 0) {
            const uint64_t t = atomicAdd((unsigned long long *)&q->head, 1ull);
            uint64_t *seq = seqs + t % n, s;
            for (uint32_t polls = 1; (s = dream_ld_relaxed(seq)) != t + 1; polls++) {
                if (polls % DREAM_SERVE_CHECK_EVERY == 0 &&
                    (dream_ld_relaxed(&q->stop) || dream_daemon_expired(ctl, deadline))) {
                    /* stop is set after the user's kernel ended, so every
                       request it posted is visible once stop is seen */
                    dream_fence_acquire();
                    s = dream_ld_relaxed(seq);
                    leave = s != t + 1;
                    break;
                }
                __nanosleep(64);
            }
            if (!leave) {
                /* the request's address depends on s: read after the
                   requester's release of it (O8) */
                const uint64_t *r = dream_after((const uint64_t *)(reqs + t % n), s, rt->page_shift);
                what = dream_ld_relaxed(r);
                prev = dream_ld_relaxed(r + 1);
                asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(seq), "l"(t + n) : "memory");
            }
        }
        if (__shfl_sync(~0u, leave, 0))
            return;
        what = __shfl_sync(~0u, what, 0);
        prev = __shfl_sync(~0u, prev, 0);
        const uint32_t slot = dream_owner_slot(what);
        const uint64_t page = dream_owner_page(what);
        dream_ptr_abi p;
        if (!dream_serve_ptr(rt, slot, page, p)) {
            if (lane == 0) {
                dream_fail(rt, DREAM_ERR_PROTOCOL, slot, 0, page, DREAM_WAIT_SERVER);
                atomicExch(&rt->abort, 1u);
            }
            continue;
        }
        const bool past = prev & DREAM_SERVE_PAST;
        prev &= ~DREAM_SERVE_PAST;
        const uint64_t e = __shfl_sync(~0u, lane == 0 ? dream_ld_relaxed(p.pte + page) : 0, 0);
        if (past ? dream_pte_state(e) != DREAM_PTE_VALID
                 : (e & (DREAM_PTE_STATE_MASK | DREAM_PTE_REQ)) != (DREAM_PTE_INVALID | DREAM_PTE_REQ))
            continue; /* loaded by a read-ahead before it was asked for, or a request left by a failed load */
        const int32_t stride = __shfl_sync(~0u, lane == 0 ? dream_ahead_stride(p, page, prev, ~0u) : 0, 0);
        /* past a marked page, from the last page of its window (dream_ahead_page: a window is the
           depth's pages from the mark on): the next window, not the rest of this one. In the
           general build the warps that wait on a load read the windows after it; here they ask
           nothing (a column walk, 4,096 pages: 126 requests that loaded their page) */
        const long long last = (long long)page + (long long)(dream_ahead_depth(p.flags) - 1) * stride;
        const uint64_t at = past && last >= 0 && (uint64_t)last < dream_pages(p) ? (uint64_t)last : page;
        const int f = dream_fault(rt, p, at, ~0u, lane == 0, e, lane == 0 ? stride : 0, false, lane == 0 && past);
        if (lane == 0 && f >= 0)
            atomicSub(&rt->ref[f], 1); /* the pin dream_fault keeps for its caller's access: none here */
    }
}
