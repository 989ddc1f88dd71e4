/* The copy kernel's rings: how a soft engine's thread (dream/cuda/dma.h,
 * copy_ring.h) hands batches of copies to the copy kernel (copier.cuh)
 * instead of the copy engines. The one source of truth for copy_ring.h,
 * copier.cuh and dream/runtime/copier.py (the Python mirror, checked by
 * tests/test_copier.py against dream._abi.layouts). Plain C.
 *
 * Memory: one block of pinned host memory, a dream_copier_ctl, then one
 * dream_copy_ring per engine thread; copy-kernel block r serves ring r.
 *
 * Who writes what, in which order:
 *   engine thread (the ring's only producer): descriptors desc[i % SLOTS],
 *     then ends[b % BATCHES] = the descriptor count after batch b (release:
 *     this publishes the batch), then posted = b + 1 (for a later resume).
 *     It writes a slot only once `consumed` shows its last use done, and an
 *     ends entry only once its last batch is done.
 *   copier block (the ring's only consumer): reads the ends of the next
 *     batches (system-scope acquire loads, past any cached copy). Batch b
 *     is posted once ends[b % BATCHES] exceeds the end before it: an entry
 *     not yet rewritten holds the end of batch b - BATCHES, which is no
 *     larger, as no batch is empty. Then a block sync, and the descriptors
 *     (system-scope loads); it copies each batch found, in
 *     order: every thread that copied fences (system scope) after its
 *     copies and the block syncs before the next batch; then consumed = the
 *     last end. So a batch runs only after every earlier batch has landed, and copies
 *     inside a batch run in any order: "data batch, then completion batch"
 *     writes each completion after its data, as a stream does on the copy
 *     engines.
 *   host (Python, dream/runtime/copier.py): before a launch started = stop =
 *     expired = 0; after the engine threads have drained their rings and
 *     stopped posting (dma.h), stop = 1.
 *   copier block: at start, consumed = the end of the last posted batch (a
 *     new launch resumes where the last one left), then started += 1; it
 *     leaves once stop is set and its ring is empty, or at its deadline
 *     (expired += 1): no wait on the GPU is unbounded. */
#pragma once
#include "dream/stdint.h"

#define DREAM_COPIER_SLOTS 4096u   /* descriptors a ring holds */
#define DREAM_COPIER_BATCHES 1024u /* batches a ring holds */
#define DREAM_COPIER_CHUNK 4096u   /* bytes one descriptor moves at most: one warp's share */
#define DREAM_COPIER_THREADS 512u  /* threads of a copier block */
/* Descriptors a block reads into shared memory at once (a batch: copy_ring.h
 * posts none larger), and the dynamic shared memory that takes: a source,
 * a destination and a length each (copier.cuh dream_copier_stage). */
#define DREAM_COPIER_STAGE (DREAM_COPIER_SLOTS / 2u)
#define DREAM_COPIER_STAGE_BYTES (DREAM_COPIER_STAGE * 20u)

typedef struct dream_copy_desc {
    uint64_t src, dst; /* any addresses the GPU can use: device memory, pinned host memory */
    uint32_t len;      /* 1 .. DREAM_COPIER_CHUNK bytes */
    uint32_t pad;
} dream_copy_desc;

typedef struct dream_copy_ring {
    uint64_t posted;   /* engine: batches posted */
    uint8_t pad0[56];
    uint64_t consumed; /* copier: descriptors landed (always a batch's end) */
    uint8_t pad1[56];
    uint64_t ends[DREAM_COPIER_BATCHES];     /* engine: descriptors posted after batch b, at b % BATCHES */
    dream_copy_desc desc[DREAM_COPIER_SLOTS]; /* engine: descriptor i at i % SLOTS */
} dream_copy_ring;

typedef struct dream_copier_ctl {
    uint32_t started; /* copier: blocks serving */
    uint32_t stop;    /* host: leave once the ring is empty */
    uint32_t expired; /* copier: blocks that left at their deadline */
    uint32_t pad[13];
} dream_copier_ctl;

DREAM_STATIC_ASSERT(sizeof(dream_copy_desc) == 24, "dream_copy_desc");
DREAM_STATIC_ASSERT(sizeof(dream_copier_ctl) == 64, "dream_copier_ctl");
DREAM_STATIC_ASSERT(sizeof(dream_copy_ring) == 128 + 8 * DREAM_COPIER_BATCHES + 24 * DREAM_COPIER_SLOTS,
                    "dream_copy_ring");
DREAM_CHECK_OFFSET(dream_copy_ring, consumed, 64);
DREAM_CHECK_OFFSET(dream_copy_ring, ends, 128);
DREAM_CHECK_OFFSET(dream_copier_ctl, expired, 8);
