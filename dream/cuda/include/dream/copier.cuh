/* The copy kernel: a soft engine's copies made by GPU threads instead of the
 * copy engines (copier.h gives the rings and the protocol; dma.h says when
 * an engine uses it). Block r serves ring r, which one engine thread fills:
 * warp 0 polls the ring's batch ends in host memory (the block's only
 * poll); the block reads the descriptors of every batch found into shared
 * memory together; for each batch in turn its warps copy them, two
 * descriptors a warp with all of a lane's loads of both in flight, every
 * thread that copied fences (system scope: some destinations are host
 * memory the engine reads once it sees `consumed`) and the block syncs;
 * then thread 0 publishes the last batch's end. Each
 * block has an SM to itself (runtime/copier.py): warps of the user's kernel
 * that spin beside it would take its issue slots.
 *
 * Why a kernel: the copy engines take 1.5-3 us of an engine thread per 4 KiB
 * copy (cudaMemcpyBatchAsync; H100, bench/results-h100/session25), most of
 * the thread's time in a 4 KiB gather, and about 2.7 M copies/s in all. Here
 * a copy is 24 bytes the thread writes to host memory. */
#pragma once
#include "dream/copier.h"
#include "dream/sync.cuh"
#include "dream/resident.cuh"

/* A batch's descriptors, read into shared memory by the whole block at once
 * (one PCIe round trip, not one per warp and pair). */
struct dream_copier_stage {
    uint64_t src[DREAM_COPIER_STAGE], dst[DREAM_COPIER_STAGE];
    uint32_t len[DREAM_COPIER_STAGE];
};
static_assert(sizeof(dream_copier_stage) == DREAM_COPIER_STAGE_BYTES, "copier.h DREAM_COPIER_STAGE_BYTES");

/* Batches one look finds: warp 0's first lanes read the next ends entries
 * together (one or two PCIe reads of adjacent words), so that a pass's data
 * batch and completion batch, posted microseconds apart, are found at once. */
#define DREAM_COPIER_LOOK 8u
/* Polls between stop and deadline checks: each poll is a PCIe read. */
#define DREAM_COPIER_CHECK_EVERY 64u

extern "C" __global__ void __launch_bounds__(DREAM_COPIER_THREADS)
    dream_copier(dream_copier_ctl *ctl, dream_copy_ring *rings, uint64_t life_ns)
{
    __shared__ uint64_t s_next, s_batch, s_ends[DREAM_COPIER_LOOK];
    __shared__ uint32_t s_count;
    /* launched with the most dynamic shared memory a block may have, so that
       no other kernel's block shares its SM (runtime/copier.py) */
    extern __shared__ uint8_t s_dynamic[];
    dream_copier_stage &stage = *(dream_copier_stage *)s_dynamic;
    dream_copy_ring *r = rings + blockIdx.x;
    const uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
    uint64_t deadline = 0;
    if (threadIdx.x == 0) {
        deadline = dream_now() + life_ns;
        /* resume after the last batch posted: the engine posts nothing
           until every block has started (dma.h), and drained its ring
           before the last launch stopped */
        const uint64_t b = dream_ld_acquire_sys(&r->posted);
        s_batch = b;
        s_next = b ? dream_ld_relaxed_sys(&r->ends[(b - 1) % DREAM_COPIER_BATCHES]) : 0;
        dream_st_relaxed_sys(&r->consumed, s_next);
        __threadfence_system();
        atomicAdd_system(&ctl->started, 1u);
    }
    for (;;) {
        if (warp == 0) {
            __syncwarp(); /* thread 0's s_next and s_batch */
            const uint64_t next = s_next, batch = s_batch;
            uint32_t count = 0;
            for (uint32_t polls = 1;; polls++) {
                /* batch b is posted once ends[b] has moved past the end
                   before it (an entry not yet rewritten holds the end of
                   batch b - BATCHES, smaller, as no batch is empty); the
                   posted ones form a prefix. Acquire: the descriptors,
                   written before their batch's end, are read after it (by
                   every thread, after the barrier below). A fence after
                   the look instead was 1-2 us of a softrnic serial fault
                   (H100: 29.5-30.0 -> 27.8-29.4 us, session 42) */
                uint64_t v = 0;
                if (lane < DREAM_COPIER_LOOK)
                    v = dream_ld_acquire_sys(&r->ends[(batch + lane) % DREAM_COPIER_BATCHES]);
                const uint64_t before = __shfl_up_sync(~0u, v, 1);
                const unsigned fresh =
                    __ballot_sync(~0u, lane < DREAM_COPIER_LOOK && v > (lane ? before : next));
                count = __ffs(~fresh) - 1;
                if (count) {
                    if (lane < count)
                        s_ends[lane] = v;
                    break;
                }
                if (polls % DREAM_COPIER_CHECK_EVERY == 0 &&
                    dream_resident_check(ctl, deadline) != DREAM_RESIDENT_STAY)
                    break;
            }
            if (lane == 0)
                s_count = count;
        }
        __syncthreads();
        const uint32_t count = s_count;
        if (count == 0)
            return;
        /* every batch found, a stage of descriptors at a time: each thread
           reads one 8-byte word of them, one round trip for the stage (a
           thread's three loads of one descriptor took 2.9 us, H100); then
           the stage's batches are copied in order, each ended by the fences
           of the threads that copied in it and a block sync */
        const uint64_t start = s_next, last = s_ends[count - 1];
        uint32_t b = 0;
        for (uint64_t lo = start; lo < last; lo += DREAM_COPIER_STAGE) {
            const uint32_t n = (uint32_t)min(last - lo, (uint64_t)DREAM_COPIER_STAGE);
            for (uint32_t w = threadIdx.x; w < 3 * n; w += blockDim.x) {
                const uint32_t k = w / 3, f = w % 3;
                const uint64_t v = dream_ld_relaxed_sys((const uint64_t *)&r->desc[(lo + k) % DREAM_COPIER_SLOTS] + f);
                if (f == 0)
                    stage.src[k] = v;
                else if (f == 1)
                    stage.dst[k] = v;
                else
                    stage.len[k] = (uint32_t)v;
            }
            __syncthreads();
            for (uint64_t from = lo; from < lo + n;) {
                const uint64_t to = min(s_ends[b], lo + n);
                bool copied = false;
                for (uint32_t k = (uint32_t)(from - lo) + 2 * warp; k < to - lo; k += 2 * warps) {
                    dream_copier_job j[2] = {{(const uint8_t *)stage.src[k], (uint8_t *)stage.dst[k],
                                              min(stage.len[k], DREAM_COPIER_CHUNK)},
                                             {}};
                    if (k + 1 < to - lo)
                        j[1] = {(const uint8_t *)stage.src[k + 1], (uint8_t *)stage.dst[k + 1],
                                min(stage.len[k + 1], DREAM_COPIER_CHUNK)};
                    dream_copier_pair(j, lane);
                    copied = true;
                }
                /* this thread's copies before the next batch's and before
                   the end the engine reads (a thread that copied nothing
                   has nothing to order) */
                if (copied)
                    __threadfence_system();
                /* read before the barrier: after the last one of a look,
                   warp 0 writes the next look's s_ends */
                const bool batch_ends = to == s_ends[b];
                __syncthreads();
                if (batch_ends)
                    b++;
                from = to;
            }
        }
        if (threadIdx.x == 0) {
            __threadfence_system();
            dream_st_relaxed_sys(&r->consumed, last);
            s_next = last;
            s_batch += count;
        }
    }
}
