/* The device half of a persistent kernel's life (daemon.h). */
#pragma once
#include "dream/daemon.h"
#include "dream/sync.cuh"

/* One block serves: after everything it did to start is visible. */
__device__ __forceinline__ void dream_daemon_started(dream_daemon_ctl *ctl)
{
    __threadfence_system();
    atomicAdd_system(&ctl->started, 1u);
}

/* Whether a block's deadline (a dream_now() value) has passed; counted. */
__device__ __forceinline__ bool dream_daemon_expired(dream_daemon_ctl *ctl, uint64_t deadline)
{
    if (dream_now() <= deadline)
        return false;
    atomicAdd_system(&ctl->expired, 1u);
    return true;
}

/* Whether a block must leave: the host asked it to, or its deadline passed.
 * Reads host memory: call it only every so many polls. */
__device__ __forceinline__ bool dream_daemon_leave(dream_daemon_ctl *ctl, uint64_t deadline)
{
    return *(const volatile uint32_t *)&ctl->stop || dream_daemon_expired(ctl, deadline);
}
