/* Submission queues shared by GPU leader threads, with batched doorbells
 * (DREAM section 3.2), for any transport whose device writes entries into a
 * ring and is told about them by a doorbell (mlx5 SQ, NVMe SQ).
 *
 * A request goes through four steps; every step is a non-blocking check the
 * caller repeats inside its own bounded wait (dream_wait_step), so lanes of
 * one warp at different steps never wait on each other:
 *
 *   t = dream_queue_tickets(q, mask, active)   collective: a ticket per active lane
 *   dream_queue_slot_free(q, t)                until true; then write the entry
 *                                              into slot dream_queue_slot(q, t)
 *                                              and call
 *   dream_queue_filled(q, t, local)            (a fence: the entry is visible
 *                                              to the consumer before anything
 *                                              that announces it)
 *   dream_queue_ring(q, t, local, ring)        until true: ticket t is covered
 *                                              by a doorbell
 *   ... wait for the completion (transport specific), then
 *   dream_queue_release(q, t)                  the slot may be reused
 *
 * dream_queue_request runs these steps for a transport, which brings only
 * how to write an entry, ring, and poll for a completion.
 *
 * Doorbells: whoever holds the ring lock scans the run of filled slots that
 * starts at the first ticket not yet rung and calls ring(t, to) once for the
 * whole run (tickets up to `to`: the transport writes its doorbell with
 * producer index `to`; t is the ringer's own ticket, the run's last or not).
 * A leader waits only for tickets before its own, each held by a leader that
 * is filling its slot, and retries the lock itself, so no leader waits for a
 * batch that cannot fill and no filled slot is left un-rung. Slots are
 * recycled in ticket order of their users: ticket t waits for ticket
 * t - depth to be released.
 *
 * Tickets are uint32 and wrap; depth divides 2^32, so slot and phase
 * arithmetic stays continuous across the wrap.
 *
 * Memory order, and the fences a lone request pays (each fence costs
 * 0.4 us at GPU scope and 0.75 us at system scope, H100; issue 11's serial
 * fault is one such request at a time):
 *   - slot_free loads the slot's mark with acquire: the entry's stores come
 *     after the release that the slot's last user made (dream_queue_release,
 *     after it consumed its completion, which the consumer wrote after
 *     reading that user's entry).
 *   - filled: one fence (system scope; GPU scope if `local`), then the mark. Entry before mark, and before
 *     every doorbell this thread writes later. `local`: the consumer runs on
 *     this GPU (the soft RNIC's GPU engine), for which a GPU-scope fence
 *     orders, here and in ring (a diagnostic of both: softrnic serial fault
 *     14.6-15.1 -> 13.8-14.4 us, H100, session 43).
 *   - ring: the lock is taken by an acquire CAS (the last holder's doorbell
 *     writes and `rung` came before its release). The marks of a run are
 *     read four at a time. A run holding entries of other tickets is rung
 *     after a system fence, which orders their marks, and so (cumulativity)
 *     the entries their writers fenced, before the doorbell; a run of the
 *     ringer's own entry alone needs none, its own fill's fence ordered it.
 *     Then `rung`, a GPU fence and the unlock: the next holder's doorbell
 *     cannot overtake this one.
 *   - release: a GPU fence, then the mark: the completion was read first.
 * These orders, against a fence after every step before: a softrnic serial
 * fault 32.3-34.7 -> 29.5-31.9 us with GPU queues, 24.2-29.3 -> 21.0-22.0 us
 * "split" (H100, bench/results-h100/session42). */
#pragma once
#include "dream/queue.h"
#include "dream/sync.cuh"
#include "dream/transport.cuh"

/* a comes before b, modulo 2^32 */
__device__ __forceinline__ bool dream_queue_before(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) < 0;
}

__device__ __forceinline__ uint32_t dream_queue_slot(const dream_queue *q, uint32_t t)
{
    return t & (q->depth - 1);
}

/* Collective over `mask`: lanes that pass the same queue share one atomic and
 * get consecutive tickets in lane order (consecutive tickets fill one run,
 * rung by one doorbell). Inactive lanes get 0 and must not use it. */
__device__ inline uint32_t dream_queue_tickets(dream_queue *q, unsigned mask, bool active)
{
    const unsigned peers = dream_match_any(mask, (unsigned long long)q);
    const unsigned act = dream_ballot(mask, active) & peers;
    const uint32_t lane = dream_lane();
    const int first = __ffs(peers) - 1;
    uint32_t base = 0;
    if ((int)lane == first && act)
        base = atomicAdd(&q->ticket, (uint32_t)__popc(act));
    if (!dream_alone(mask))
        base = __shfl_sync(peers, base, first);
    return active ? base + __popc(act & ((1u << lane) - 1)) : 0u;
}

/* True once ticket t may write its slot (the slot's previous user, ticket
 * t - depth, has been released). */
__device__ __forceinline__ bool dream_queue_slot_free(dream_queue *q, uint32_t t)
{
    return dream_ld_acquire(&q->seq[dream_queue_slot(q, t)]) == 2u * t;
}

/* Ticket t's entry is written: fenced at system scope, or GPU scope where
 * the consumer is on this GPU (`local`), since the consumer may read it once
 * any doorbell covers it; then marked filled. */
__device__ __forceinline__ void dream_queue_filled(dream_queue *q, uint32_t t, bool local)
{
    if (local)
        __threadfence();
    else
        __threadfence_system();
    *(volatile uint32_t *)&q->seq[dream_queue_slot(q, t)] = 2u * t + 1u;
}

/* The first ticket from `from` on whose slot is not marked filled (at most
 * from + depth): marks read four at a time, so that a run costs one L2 round
 * trip per four entries. */
__device__ __forceinline__ uint32_t dream_queue_run_end(const dream_queue *q, uint32_t from)
{
    const uint32_t mask = q->depth - 1;
    uint32_t to = from;
    for (;;) {
        uint32_t m[4];
#pragma unroll
        for (uint32_t i = 0; i < 4; i++)
            m[i] = to + i - from < q->depth ? dream_load_u32(&q->seq[(to + i) & mask]) : 0u;
        uint32_t k = 0;
        while (k < 4 && to + k - from < q->depth && m[k] == 2u * (to + k) + 1u)
            k++;
        to += k;
        if (k < 4)
            return to;
    }
}

/* True once ticket t is covered by a doorbell. Otherwise tries to ring: with
 * the lock, rings every filled slot from the first un-rung ticket on by one
 * call ring(t, to), which writes the doorbell for producer index `to` with
 * whatever order among its own writes the device needs; the entries of the
 * run are already ordered before it (see the top of this file). */
template <class Ring>
__device__ inline bool dream_queue_ring(dream_queue *q, uint32_t t, bool local, bool eager, Ring &&ring)
{
    if (!eager) {
        const uint32_t rung = dream_load_u32(&q->rung), held = dream_load_u32(&q->lock);
        if (dream_queue_before(t, rung))
            return true;
        if (held)
            return false;
    }
    if (dream_cas_acquire(&q->lock, 0u, 1u) != 0u)
        return false;
    const uint32_t mask = q->depth - 1;
    uint32_t m[4];
#pragma unroll
    for (uint32_t i = 0; i < 4; i++)
        m[i] = i < q->depth ? dream_load_u32(&q->seq[(t + i) & mask]) : 0u;
    const uint32_t from = dream_load_u32(&q->rung);
    uint32_t to;
    if (from == t) {
        uint32_t k = 0;
        while (k < 4 && k < q->depth && m[k] == 2u * (t + k) + 1u)
            k++;
        to = k < 4 ? t + k : dream_queue_run_end(q, t);
    } else {
        to = dream_queue_run_end(q, from);
    }
    if (to != from) {
        if (from != t || to != t + 1u) {
            if (local)
                __threadfence();
            else
                __threadfence_system();
        }
        ring(t, to);
        *(volatile uint32_t *)&q->rung = to;
    }
    __threadfence();
    atomicExch(&q->lock, 0u);
    return dream_queue_before(t, to);
}

/* The request of ticket t has completed and its completion was consumed. */
__device__ __forceinline__ void dream_queue_release(dream_queue *q, uint32_t t)
{
    __threadfence();
    *(volatile uint32_t *)&q->seq[dream_queue_slot(q, t)] = 2u * (t + q->depth);
}

#define DREAM_QUEUE_PENDING (-1) /* a poll's "not yet" */

/* A transport's dream_transport_io (transport.cuh) over queue q, index qi:
 * each active lane takes a ticket and runs SLOT -> RING -> POLL -> DONE; the
 * lanes step in lock step, each step a non-blocking check, so that none waits
 * on another lane of its warp.
 *   fill(t)          writes ticket t's entry into its slot (then
 *                    dream_queue_filled)
 *   ring(t, to)      the doorbell, as for dream_queue_ring
 *   local            the consumer is on this GPU: fences at GPU scope
 *   poll(t)          DREAM_QUEUE_PENDING, or the request's DREAM_IO_* status
 *                    (an error already recorded)
 * A step that waits past the runtime's timeout without progress ends the
 * request with DREAM_IO_TIMEOUT, recorded with qi, the ticket's low 16 bits
 * and `opcode`; its slot stays taken, since the device may still complete it. */
template <class Fill, class Ring, class Poll>
__device__ inline int dream_queue_request(dream_rt_state *rt, dream_queue *q, uint32_t qi, unsigned mask,
                                          bool active, const dream_io_req &r, uint32_t opcode, bool local, Fill &&fill,
                                          Ring &&ring, Poll &&poll)
{
    enum { SLOT, RING, POLL, DONE };
    const unsigned todo = dream_ballot(mask, active);
    if (todo && dream_lane() == (uint32_t)(__ffs(mask) - 1))
        dream_count(rt, DREAM_C_REQUESTS, __popc(todo));
    const uint32_t t = dream_queue_tickets(q, mask, active);
    int stage = active ? SLOT : DONE;
    int status = DREAM_IO_OK;
    bool eager = active && dream_lane() == 31u - __clz(todo);
    uint64_t t_wait = 0;
    while (dream_any(mask, stage != DONE)) {
        bool moved = false;
        if (stage == SLOT && dream_queue_slot_free(q, t)) {
            fill(t);
            dream_queue_filled(q, t, local);
            stage = RING;
            moved = true;
        }
        if (stage == RING) {
            if (dream_queue_ring(q, t, local, eager, ring)) {
                stage = POLL;
                moved = true;
            }
            eager = false;
        }
        if (stage == POLL) {
            const int s = poll(t);
            if (s != DREAM_QUEUE_PENDING) {
                dream_queue_release(q, t);
                status = s;
                stage = DONE;
                moved = true;
            }
        }
        if (moved) {
            t_wait = 0;
        } else if (stage != DONE && !dream_wait_step(rt, t_wait)) {
            dream_wait_failed(rt, stage == POLL ? DREAM_WAIT_COMPLETION : DREAM_WAIT_QUEUE, r.slot,
                              r.page, qi, t & 0xFFFFu, opcode);
            status = DREAM_IO_TIMEOUT;
            stage = DONE;
        }
    }
    return status;
}
