/* The state of one submission queue shared by GPU threads, as the host
 * allocates and initializes it (plain C: host engines, NVRTC and the Python
 * mirrors agree on it). The device functions that use it are in queue.cuh.
 *
 * Host initialization: ticket = rung = lock = 0, depth a power of two
 * (<= 32768), seq[s] = 2 * s for every slot s of the depth. */
#pragma once
#include "dream/stdint.h"

#define DREAM_QUEUE_MAX_DEPTH 32768u

typedef struct dream_queue {
    uint32_t ticket; /* next ticket to hand out; ticket t uses slot t & (depth - 1) */
    uint32_t rung;   /* tickets before this one are covered by a doorbell */
    uint32_t lock;   /* 1 while a leader rings the doorbell */
    uint32_t depth;  /* slots, a power of two */
    uint32_t *seq;   /* per slot: 2t = free for ticket t, 2t + 1 = filled by ticket t */
} dream_queue;

DREAM_STATIC_ASSERT(sizeof(dream_queue) == 24, "dream_queue");
DREAM_CHECK_OFFSET(dream_queue, rung, 4);
DREAM_CHECK_OFFSET(dream_queue, depth, 12);
DREAM_CHECK_OFFSET(dream_queue, seq, 16);
