/* A persistent kernel's control block: the copy kernel's (copier.cuh) and
 * the fault servers' (serve.cuh), in pinned host memory, mirrored by
 * dream/runtime/daemon.py. Plain C.
 *
 * Who writes what: the host zeroes the block before the launch; each block
 * of the kernel adds 1 to `started` once it serves (the host launches the
 * user's kernel only after every block has, so the daemon's blocks are
 * resident before that kernel can fill the GPU); the host sets `stop` after
 * the user's kernel has ended (the fault servers read a copy of it in device
 * memory, serve.cuh); a block leaves once it sees `stop` and has nothing
 * left to do, or at its deadline, adding 1 to `expired` then (no wait on the
 * GPU is unbounded). */
#pragma once
#include "dream/stdint.h"

typedef struct dream_daemon_ctl {
    uint32_t started; /* blocks serving */
    uint32_t stop;    /* host: leave once there is nothing left to do */
    uint32_t expired; /* blocks that left at their deadline */
    uint32_t pad[13];
} dream_daemon_ctl;

DREAM_STATIC_ASSERT(sizeof(dream_daemon_ctl) == 64, "dream_daemon_ctl");
DREAM_CHECK_OFFSET(dream_daemon_ctl, expired, 8);
