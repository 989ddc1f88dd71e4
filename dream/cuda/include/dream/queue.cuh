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
 *                                              into slot dream_queue_slot(q, t),
 *                                              make it visible to the consumer
 *                                              (__threadfence_system), and call
 *   dream_queue_filled(q, t)
 *   dream_queue_ring(q, t, ring)               until true: ticket t is covered
 *                                              by a doorbell
 *   ... wait for the completion (transport specific), then
 *   dream_queue_release(q, t)                  the slot may be reused
 *
 * Doorbells: whoever holds the ring lock scans the run of filled slots that
 * starts at the first ticket not yet rung and calls ring(from, to) once for
 * the whole run (tickets [from, to): the transport writes its doorbell with
 * producer index `to`). A leader waits only for tickets before its own, each
 * held by a leader that is filling its slot, and retries the lock itself, so
 * no leader waits for a batch that cannot fill and no filled slot is left
 * un-rung. Slots are recycled in ticket order of their users: ticket t waits
 * for ticket t - depth to be released.
 *
 * Tickets are uint32 and wrap; depth divides 2^32, so slot and phase
 * arithmetic stays continuous across the wrap. */
#pragma once
#include "dream/queue.h"
#include "dream/sync.cuh"

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
    base = __shfl_sync(peers, base, first);
    return active ? base + __popc(act & ((1u << lane) - 1)) : 0u;
}

/* True once ticket t may write its slot (the slot's previous user, ticket
 * t - depth, has been released). */
__device__ __forceinline__ bool dream_queue_slot_free(dream_queue *q, uint32_t t)
{
    if (dream_load_u32(&q->seq[dream_queue_slot(q, t)]) != 2u * t)
        return false;
    __threadfence(); /* the entry is written after the release was seen */
    return true;
}

__device__ __forceinline__ void dream_queue_filled(dream_queue *q, uint32_t t)
{
    __threadfence();
    *(volatile uint32_t *)&q->seq[dream_queue_slot(q, t)] = 2u * t + 1u;
}

/* True once ticket t is covered by a doorbell. Otherwise tries to ring: with
 * the lock, rings every filled slot from the first un-rung ticket on by one
 * call ring(from, to), which must write the doorbell for producer index `to`
 * with whatever fences the device needs. */
template <class Ring>
__device__ inline bool dream_queue_ring(dream_queue *q, uint32_t t, Ring &&ring)
{
    if (dream_queue_before(t, dream_load_u32(&q->rung)))
        return true;
    if (atomicCAS(&q->lock, 0u, 1u) != 0u)
        return false;
    __threadfence();
    const uint32_t from = dream_load_u32(&q->rung);
    const uint32_t mask = q->depth - 1;
    uint32_t to = from;
    while (to - from < q->depth && dream_load_u32(&q->seq[to & mask]) == 2u * to + 1u)
        to++;
    if (to != from) {
        __threadfence(); /* the filled marks were read before the entries are rung */
        ring(from, to);
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
