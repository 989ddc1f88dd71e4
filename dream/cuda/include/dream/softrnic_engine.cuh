/* The soft RNIC's GPU engine (engine="gpu", dream/verbs/softrnic.py): the
 * warps of a resident kernel serve the WQEs GPU threads post (rnic.cuh), in
 * place of the host threads of softrnic.cpp, so that no CPU and no PCIe round
 * trip to one stands in a fault's path. Each WQE is checked, and its CQE
 * built, by the code the host engine runs (softrnic.h); the data moves as the
 * copy kernel moves it (resident.cuh). It runs only while the runtime runs
 * a kernel, on SMs of its own (runtime/resident.py), as the copy kernel does.
 *
 * Why: a host engine puts two PCIe crossings, its own pass and, with the SQ
 * in GPU memory, a copy-engine fetch of the WQEs into every fault: a serial
 * 4 KiB fault took 25.5-27.7 us on an H100 (session 42), and about 13 us is
 * the floor of any engine on the host (session 31). This one made it in
 * 11.7 us, and streams and gathers faster (bench/results-h100/session43).
 * It departs from DESIGN.md's softrnic, a host engine thread moving the data
 * with the copy engines, for that reason; that engine stays (engine="host").
 * The WQE, CQE and doorbell record bytes are rnic's; the UAR word, which
 * only a NIC reads, is not written while this engine serves
 * (DREAM_RNIC_LOCAL_ENGINE).
 *
 * Lane l of warp w serves QP w + l * warps (the host gives a warp at most 32)
 * and alone reads and writes that QP's state; the warp serves the WQEs of one
 * QP at a time, up to 32 at once, a lane each.
 *
 * Who writes what, in which order:
 *   GPU threads (rnic.cuh): WQEs, then (ordered after them by a system fence:
 *     dream_queue_ring) the doorbell record's send counter, then the UAR word,
 *     which this engine does not read. A WQE's slot is rewritten only after
 *     its CQE was consumed.
 *   engine, QP's lane: polls the doorbell record by acquire (GPU scope: the
 *     writers are on this GPU, and fence at that scope there,
 *     DREAM_RNIC_LOCAL_ENGINE), so the WQEs before it are seen; its L1, which
 *     each acquire empties, serves no other kernel. The warp syncs
 *     (bar.warp.sync orders memory among its lanes), and each lane reads its
 *     WQE past L1 (ld.cv).
 *   engine, every lane: writes the body of its WQE's CQE (bytes 0-55) and
 *     the data; the warp syncs; every lane fences, which after the sync
 *     covers all the warp's stores (and its reads of the WQEs and sources:
 *     a slot or frame reused after its CQE is not read again); then each
 *     CQE's lane stores its last 8 bytes (wqe_counter, owner) in one store.
 *     GPU scope: every reader of what it wrote is a thread of this GPU (an
 *     RDMA WRITE's backing store is read on the host only after the
 *     launch). The consumer polls those 8 bytes and
 *     reads them again by acquire before the rest (rnic.cuh): it sees the
 *     body and the data.
 *   host (runtime/resident.py): before a launch started = stop = expired = 0
 *     and the region table and QP states in place; after it, stop = 1.
 *   engine: started += 1 a block (a warp with no QP leaves at once); a warp
 *     leaves after one more pass over its doorbells once it has seen stop
 *     set while idle, or at its deadline (expired += 1 a warp): no wait is
 *     unbounded. On leaving each lane writes its QP's state back, and the
 *     warp adds its counts. */
#pragma once
#include "dream/copier.h"
#include "dream/softrnic.h"
#include "dream/sync.cuh"
#include "dream/resident.cuh"

/* Idle polls in a row between stop and deadline checks: a stop check reads
 * host memory. */
#define DREAM_SOFTRNIC_CHECK_EVERY 256u

/* Up to 32 WQEs of one QP, starting at WQE `first` (all lanes; the QP's
 * fields are the same on every lane). Returns the CQEs made; *error is the
 * QP's error state, before and after. */
__device__ inline uint32_t dream_softrnic_serve_group(const dream_softrnic_gpu &g, const uint8_t *sq, uint8_t *cq,
                                                      uint32_t depth, uint32_t qpn, uint32_t first, uint32_t m,
                                                      uint32_t cq_pi, uint32_t *error, dream_softrnic_counts &cnt,
                                                      uint32_t lane)
{
    const bool has = lane < m;
    dream_softrnic_work k = {};
    if (has) {
        const uint4 *w = (const uint4 *)(sq + (size_t)((first + lane) & (depth - 1)) * DREAM_MLX5_SEND_WQE_BB);
        const uint4 a = __ldcv(w), b = __ldcv(w + 1), c = __ldcv(w + 2);
        const uint32_t words[12] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, c.x, c.y, c.z, c.w};
        k = dream_softrnic_decode(words, first + lane, qpn, *error, g.max_message, g.regions, g.nregions);
    }
    /* the first WQE that fails the QP flushes the ones after it */
    const unsigned fails = __ballot_sync(~0u, has && dream_softrnic_fails_qp(&k));
    if (fails && has && lane > (uint32_t)(__ffs(fails) - 1))
        dream_softrnic_flush(&k);
    if (fails)
        *error = 1;
    if (has)
        dream_softrnic_count(cnt, k);

    /* CQEs in WQE order; their bodies now */
    const unsigned cqes = __ballot_sync(~0u, has && k.cqe);
    uint32_t cqe[16];
    uint8_t *slot = nullptr;
    if (has && k.cqe) {
        const uint32_t c = cq_pi + __popc(cqes & ((1u << lane) - 1u));
        slot = cq + (size_t)(c & (depth - 1)) * DREAM_MLX5_CQE_SIZE;
        dream_softrnic_cqe(cqe, &k, qpn, (c & depth) ? 1u : 0u);
        uint4 *s = (uint4 *)slot;
        __stcg(s, make_uint4(cqe[0], cqe[1], cqe[2], cqe[3]));
        __stcg(s + 1, make_uint4(cqe[4], cqe[5], cqe[6], cqe[7]));
        __stcg(s + 2, make_uint4(cqe[8], cqe[9], cqe[10], cqe[11]));
        __stcg((uint2 *)(slot + 48), make_uint2(cqe[12], cqe[13]));
        cnt.cqes++;
    }

    /* the data, in pieces of DREAM_COPIER_CHUNK bytes, two a warp at once:
       piece p is WQE L's, the first lane whose running count passes p */
    const uint32_t pieces = (uint32_t)((k.len + DREAM_COPIER_CHUNK - 1) / DREAM_COPIER_CHUNK);
    uint32_t upto = pieces;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        const uint32_t v = __shfl_up_sync(~0u, upto, d);
        if (lane >= (uint32_t)d)
            upto += v;
    }
    const uint32_t total = __shfl_sync(~0u, upto, 31);
    for (uint32_t p = 0; p < total; p += 2) {
        dream_copier_job j[2];
#pragma unroll
        for (int q = 0; q < 2; q++) {
            const uint32_t piece = p + q;
            const unsigned past = __ballot_sync(~0u, upto > piece);
            const int L = past ? __ffs(past) - 1 : 0;
            const uint32_t before = __shfl_sync(~0u, upto - pieces, L);
            const uint64_t off = (uint64_t)(piece - before) * DREAM_COPIER_CHUNK;
            const uint64_t len = __shfl_sync(~0u, k.len, L);
            j[q].src = (const uint8_t *)__shfl_sync(~0u, k.src, L) + off;
            j[q].dst = (uint8_t *)__shfl_sync(~0u, k.dst, L) + off;
            j[q].len = piece < total ? (uint32_t)min(len - off, (uint64_t)DREAM_COPIER_CHUNK) : 0u;
        }
        dream_copier_pair(j, lane);
    }

    /* every lane's stores, then each CQE's last 8 bytes */
    __syncwarp();
    __threadfence();
    if (slot)
        dream_st_relaxed_sys((uint64_t *)(slot + 56), (uint64_t)cqe[15] << 32 | cqe[14]);
    return __popc(cqes);
}

extern "C" __global__ void __launch_bounds__(DREAM_SOFTRNIC_GPU_THREADS)
    dream_softrnic_serve(dream_copier_ctl *ctl, const dream_softrnic_gpu *gp, uint64_t life_ns)
{
    const dream_softrnic_gpu g = *gp;
    const uint32_t lane = threadIdx.x % 32;
    const uint32_t warps = gridDim.x * (blockDim.x / 32);
    const uint32_t warp = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const uint32_t qi = warp + lane * warps;
    const bool mine = qi < g.nqps;
    dream_softrnic_qp_state st = {};
    dream_rnic_queue Q = {};
    if (mine) {
        st = g.state[qi];
        Q = g.qps[qi];
    }
    dream_softrnic_counts cnt = {};
    const uint64_t deadline = dream_now() + life_ns;
    if (threadIdx.x == 0)
        atomicAdd_system(&ctl->started, 1u);
    if (!__any_sync(~0u, mine))
        return;

    bool last = false; /* stop seen: this is the last pass */
    for (uint32_t idle = 0;;) {
        uint32_t n = 0;
        if (mine) {
            const uint32_t v = dream_bswap32(dream_ld_acquire(&Q.dbr->send_counter)) & 0xFFFFu;
            n = (v - st.consumer) & 0xFFFFu;
            if (v != st.last_dbr) { /* counted as the host engine counts its UAR words */
                st.last_dbr = v;
                cnt.doorbells++;
                if (n > Q.q.depth)
                    cnt.bad_doorbells++;
            }
            if (n > Q.q.depth)
                n = 0;
        }
        unsigned busy = __ballot_sync(~0u, n != 0);
        if (!busy) {
            if (last)
                break;
            if (++idle % DREAM_SOFTRNIC_CHECK_EVERY == 0) {
                const int leave = dream_resident_check(ctl, deadline);
                if (leave == DREAM_RESIDENT_EXPIRED)
                    break;
                last = leave == DREAM_RESIDENT_STOP;
            }
            continue;
        }
        idle = 0;
        __syncwarp(); /* each QP's doorbell acquire before every lane's WQE reads */
        while (busy) {
            const int b = __ffs(busy) - 1;
            busy &= busy - 1;
            const uint8_t *sq = (const uint8_t *)__shfl_sync(~0u, (uint64_t)Q.sq, b);
            uint8_t *cq = (uint8_t *)__shfl_sync(~0u, (uint64_t)Q.cq, b);
            const uint32_t depth = __shfl_sync(~0u, Q.q.depth, b), qpn = __shfl_sync(~0u, Q.qpn, b);
            uint32_t first = __shfl_sync(~0u, st.consumer, b), cq_pi = __shfl_sync(~0u, st.cq_pi, b);
            uint32_t error = __shfl_sync(~0u, st.error, b);
            for (uint32_t left = __shfl_sync(~0u, n, b); left;) {
                const uint32_t m = min(left, 32u);
                cq_pi += dream_softrnic_serve_group(g, sq, cq, depth, qpn, first, m, cq_pi, &error, cnt, lane);
                first += m;
                left -= m;
            }
            if (lane == (uint32_t)b) {
                st.consumer = first;
                st.cq_pi = cq_pi;
                st.error = error;
            }
        }
    }

    if (mine)
        g.state[qi] = st;
#define DREAM_SOFTRNIC_ADD(name)                                                                           \
    {                                                                                                      \
        uint64_t v = cnt.name;                                                                             \
        for (int d = 16; d; d /= 2)                                                                        \
            v += __shfl_down_sync(~0u, v, d);                                                              \
        if (lane == 0 && v)                                                                                \
            atomicAdd((unsigned long long *)&g.counts->name, (unsigned long long)v);                       \
    }
    DREAM_SOFTRNIC_COUNTS(DREAM_SOFTRNIC_ADD)
#undef DREAM_SOFTRNIC_ADD
}
