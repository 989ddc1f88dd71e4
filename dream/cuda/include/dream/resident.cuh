/* What the resident kernels (runtime/resident.py) share: the copy kernel
 * (copier.cuh) and the soft RNIC's GPU engine (softrnic_engine.cuh). A
 * warp's copy of up to two pieces of memory, and a warp's check of its
 * control block (copier.h dream_copier_ctl). */
#pragma once
#include "dream/copier.h"
#include "dream/sync.cuh"

struct dream_copier_job {
    const uint8_t *src;
    uint8_t *dst;
    uint32_t len; /* 0: none */
};

/* Copies a and b, each at most DREAM_COPIER_CHUNK bytes, over the warp's
 * lanes, every lane's loads of both in flight before its stores. Sources are read past the caches
 * (ld.cv): staging and completion images in host memory are rewritten by the
 * engine between copies, and a stale line must not be read again. A job whose
 * ends or length are not 16-byte aligned goes byte by byte. */
__device__ __forceinline__ void dream_copier_pair(const dream_copier_job (&j)[2], uint32_t lane)
{
    constexpr int kUnroll = DREAM_COPIER_CHUNK / 16 / 32;
    bool vec[2];
    uint4 v[2][kUnroll];
#pragma unroll
    for (int q = 0; q < 2; q++) {
        vec[q] = ((uint64_t)j[q].src | (uint64_t)j[q].dst | j[q].len) % 16 == 0;
#pragma unroll
        for (int u = 0; u < kUnroll; u++) {
            const uint32_t k = lane + 32 * u;
            if (vec[q] && 16 * k < j[q].len)
                v[q][u] = __ldcv((const uint4 *)j[q].src + k);
        }
    }
#pragma unroll
    for (int q = 0; q < 2; q++) {
#pragma unroll
        for (int u = 0; u < kUnroll; u++) {
            const uint32_t k = lane + 32 * u;
            if (vec[q] && 16 * k < j[q].len)
                __stcg((uint4 *)j[q].dst + k, v[q][u]);
        }
        if (!vec[q])
            for (uint32_t k = lane; k < j[q].len; k += 32)
                j[q].dst[k] = *(const volatile uint8_t *)(j[q].src + k);
    }
}

enum { DREAM_RESIDENT_STAY, DREAM_RESIDENT_STOP, DREAM_RESIDENT_EXPIRED };

/* Collective over the warp: DREAM_RESIDENT_STOP once the host has set stop,
 * DREAM_RESIDENT_EXPIRED once lane 0's `deadline` has passed (counted in
 * expired), else DREAM_RESIDENT_STAY. Reads host memory: a caller checks
 * only every so many idle polls. */
__device__ inline int dream_resident_check(dream_copier_ctl *ctl, uint64_t deadline)
{
    int leave = DREAM_RESIDENT_STAY;
    if (threadIdx.x % 32 == 0) {
        if (*(const volatile uint32_t *)&ctl->stop != 0) {
            leave = DREAM_RESIDENT_STOP;
        } else if (dream_now() > deadline) {
            atomicAdd_system(&ctl->expired, 1u);
            leave = DREAM_RESIDENT_EXPIRED;
        }
    }
    return __shfl_sync(~0u, leave, 0);
}
