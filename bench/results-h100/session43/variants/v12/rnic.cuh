/* The RNIC transport (backends `rnic` and `softrnic`; DREAM sections 3.2, 4):
 * each request is an mlx5 RDMA READ (page in) or RDMA WRITE (write-back) WQE
 * written by its leader thread into a send queue; one doorbell (doorbell
 * record, then the 8-byte UAR write) covers each run of filled slots; the
 * leader polls its own CQE by owner bit. A real ConnectX and the soft RNIC
 * serve the same bytes.
 *
 * Remote side: the array's backing region (desc.backing + page offset,
 * desc.key as rkey). Local side: the frame (the frame ring's lkey). */
#pragma once
#include "dream/mlx5.h"
#include "dream/queue.cuh"
#include "dream/transport.cuh"

/* The UAR is device memory of the NIC (or pinned host memory standing in for
 * it): one strong, uncombined 8-byte store. */
__device__ __forceinline__ void dream_mmio_store64(uint64_t *p, uint64_t v)
{
    asm volatile("st.mmio.relaxed.sys.global.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

/* The first 8 bytes of ticket t's WQE (ctrl: index | opcode, qpn | ds), which
 * are also its doorbell's UAR value. */
__device__ __forceinline__ uint2 dream_rnic_ctrl(uint32_t t, uint32_t opcode, uint32_t qpn)
{
    return make_uint2(dream_bswap32(((t & 0xFFFFu) << 8) | opcode), dream_bswap32((qpn << 8) | DREAM_MLX5_RDMA_DS));
}

__device__ __forceinline__ void dream_rnic_write_wqe(uint8_t *wqe, uint32_t t, uint32_t opcode,
                                                     uint32_t qpn, uint64_t raddr, uint32_t rkey,
                                                     uint64_t laddr, uint32_t lkey, uint32_t len)
{
    uint4 *w = (uint4 *)wqe;
    /* ctrl: index | opcode, qpn | ds, signature, stream id, fm_ce_se, imm */
    const uint2 c = dream_rnic_ctrl(t, opcode, qpn);
    w[0] = make_uint4(c.x, c.y, DREAM_MLX5_WQE_CTRL_CQ_UPDATE << 24, 0u);
    w[1] = make_uint4(dream_bswap32((uint32_t)(raddr >> 32)), dream_bswap32((uint32_t)raddr),
                      dream_bswap32(rkey), 0u);
    w[2] = make_uint4(dream_bswap32(len), dream_bswap32(lkey),
                      dream_bswap32((uint32_t)(laddr >> 32)), dream_bswap32((uint32_t)laddr));
}

/* Doorbell for the run of WQEs before ticket `to`: the record first, then the
 * UAR write of the last WQE's first 8 bytes; the NIC may read the WQEs as
 * soon as either lands.
 * The WQEs are ordered before the record already (dream_queue_ring). A
 * ringer that wrote the last WQE itself (ticket `own`, first 8 bytes
 * `own_ctrl`) has them at hand; others read them back from the SQ, which may
 * lie in host memory (a read across PCIe). */
__device__ inline void dream_rnic_doorbell(dream_rt_state *rt, dream_rnic_queue *Q, uint32_t to, uint32_t own,
                                           uint2 own_ctrl)
{
    const uint8_t *last = Q->sq + (size_t)((to - 1u) & (Q->q.depth - 1u)) * DREAM_MLX5_SEND_WQE_BB;
    const uint64_t db = to - 1u == own ? ((uint64_t)own_ctrl.y << 32 | own_ctrl.x) : *(const volatile uint64_t *)last;
    *(volatile uint32_t *)&Q->dbr->send_counter = dream_bswap32(to & 0xFFFFu);
    (void)db;
    dream_count(rt, DREAM_C_DOORBELLS, 1);
}

/* Checks the CQE of ticket t once: DREAM_QUEUE_PENDING until it has arrived,
 * then the request's DREAM_IO_* status (the error recorded). */
__device__ inline int dream_rnic_poll(dream_rt_state *rt, dream_rnic_queue *Q, uint32_t qi,
                                      uint32_t t, uint32_t opcode, const dream_io_req &r)
{
    const uint8_t *cqe = Q->cq + (size_t)dream_queue_slot(&Q->q, t) * DREAM_MLX5_CQE_SIZE;
    /* wqe_counter, signature and op_own arrive together in the last 8 bytes;
       polled relaxed (an acquire is CCTL.IVALL on sm_90: each poll would
       empty the SM's L1 under its other warps), then read once more by
       acquire: the rest of the CQE, and the data, after its owner byte */
    const uint64_t tail = *(const volatile uint64_t *)(cqe + 56);
    const uint32_t op_own = (uint32_t)(tail >> 56);
    const uint32_t cqe_op = op_own >> 4;
    const uint32_t owner = (t & Q->q.depth) ? 1u : 0u; /* flips on every pass over the CQ */
    if (cqe_op == DREAM_MLX5_CQE_INVALID || (op_own & DREAM_MLX5_CQE_OWNER_MASK) != owner)
        return DREAM_QUEUE_PENDING;
    dream_ld_acquire_sys((const uint64_t *)(cqe + 56)); /* the same value: the CQE stays until released */
    const uint32_t wqe_counter = (uint32_t)((tail >> 24) & 0xFF00u) | (uint32_t)((tail >> 40) & 0xFFu);
    const uint32_t idx = t & 0xFFFFu;
    if (cqe_op == DREAM_MLX5_CQE_REQ && wqe_counter == idx)
        return DREAM_IO_OK;
    if (cqe_op == DREAM_MLX5_CQE_REQ_ERR && wqe_counter == idx) {
        const uint32_t w = *(const volatile uint32_t *)(cqe + 52); /* bytes 54, 55 */
        const uint32_t vendor = (w >> 16) & 0xFFu, syndrome = w >> 24;
        /* A flushed WQE never ran: its QP had already failed an earlier WQE,
           whose own leader records that cause. */
        if (syndrome != DREAM_MLX5_SYND_WR_FLUSH_ERR)
            dream_fail(rt, DREAM_ERR_TRANSPORT, r.slot, 0, r.page, DREAM_WAIT_NONE,
                       syndrome | (vendor << 8), qi, idx, opcode);
        return DREAM_IO_ERROR;
    }
    dream_fail(rt, DREAM_ERR_TRANSPORT, r.slot, 0, r.page, DREAM_WAIT_NONE,
               DREAM_RNIC_BAD_CQE | op_own, qi, idx | (wqe_counter << 16), opcode);
    return DREAM_IO_ERROR;
}

/* See transport.cuh: one WQE per active lane on its SM's queue. */
__device__ inline int dream_transport_io(dream_rt_state *rt, unsigned mask, bool active,
                                         const dream_io_req &r)
{
    const dream_rnic *T = (const dream_rnic *)rt->transport;
    const uint32_t qi = dream_smid() % T->nqueues;
    dream_rnic_queue *Q = T->queues + qi;
    const uint32_t opcode =
        r.dir == DREAM_IO_WRITE ? DREAM_MLX5_OPCODE_RDMA_WRITE : DREAM_MLX5_OPCODE_RDMA_READ;
    return dream_queue_request(
        rt, &Q->q, qi, mask, active, r, opcode,
        [&](uint32_t t) {
            const dream_array_desc &a = rt->arrays[r.slot];
            dream_rnic_write_wqe(Q->sq + (size_t)dream_queue_slot(&Q->q, t) * DREAM_MLX5_SEND_WQE_BB, t,
                                 opcode, Q->qpn, a.backing + (r.page << rt->page_shift), a.key,
                                 (uint64_t)dream_frame_addr(rt, r.frame), Q->lkey, 1u << rt->page_shift);
        },
        [&](uint32_t t, uint32_t to) { dream_rnic_doorbell(rt, Q, to, t, dream_rnic_ctrl(t, opcode, Q->qpn)); },
        [&](uint32_t t) { return dream_rnic_poll(rt, Q, qi, t, opcode, r); });
}
