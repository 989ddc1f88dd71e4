/* The NVMe transport (backend `nvme`; BaM, GPU-NVMe-Direct): each request is
 * an NVMe READ (page in) or WRITE (write-back) command written by its leader
 * into an I/O submission queue picked by SM; one SQ tail doorbell covers each
 * run of filled entries (queue.cuh); completions, which arrive in any order,
 * are drained from the CQ by phase tag into per-command mailboxes, with one
 * CQ head doorbell per drain. A real controller and the software controller
 * (softnvme.cpp) serve the same bytes (nvme.h).
 *
 * Backing: page p of array s is bytes arrays[s].backing + (p << page_shift)
 * of namespace arrays[s].key; only the blocks that hold array bytes move (the
 * last page of an array may be short), so a file need only cover the array. */
#pragma once
#include "dream/nvme.h"
#include "dream/queue.cuh"
#include "dream/transport.cuh"

/* A doorbell register (or the pinned host word standing in for it): one
 * strong, uncombined 4-byte store. */
__device__ __forceinline__ void dream_mmio_store32(uint32_t *p, uint32_t v)
{
    asm volatile("st.mmio.relaxed.sys.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

__device__ inline void dream_nvme_write_sqe(dream_rt_state *rt, const dream_nvme *T,
                                            dream_nvme_queue *Q, uint32_t t, const dream_io_req &r)
{
    const dream_array_desc &a = rt->arrays[r.slot];
    const uint64_t off = r.page << rt->page_shift;
    const uint64_t nbytes = a.n_elems * a.elem_size;
    uint64_t len = nbytes - off; /* the array's last page may be short */
    if (len > (1ull << rt->page_shift))
        len = 1ull << rt->page_shift;
    const uint32_t nlb = (uint32_t)((len + (1ull << T->lba_shift) - 1) >> T->lba_shift);
    const uint64_t cpage = 1ull << DREAM_NVME_CTRL_PAGE_SHIFT;
    /* controller pages the transfer touches; frames are page aligned */
    const uint64_t npages = (((uint64_t)nlb << T->lba_shift) + cpage - 1) >> DREAM_NVME_CTRL_PAGE_SHIFT;
    const uint64_t prp1 = T->frames_dma + ((uint64_t)r.frame << rt->page_shift);
    uint64_t prp2 = 0;
    if (npages == 2)
        prp2 = prp1 + cpage;
    else if (npages > 2) /* the host's list for this frame: its pages 1, 2, ... */
        prp2 = T->prp_lists + (uint64_t)r.frame * T->prp_stride;
    const uint32_t opc = r.dir == DREAM_IO_WRITE ? DREAM_NVME_OPC_WRITE : DREAM_NVME_OPC_READ;
    uint4 *e = (uint4 *)(Q->sq + (t & (Q->entries - 1)));
    /* opc | flags | cid, nsid, cdw2, cdw3 / mptr, prp1 / prp2, slba / nlb | control, 13-15 */
    e[0] = make_uint4(opc | ((t & 0xFFFFu) << 16), a.key, 0u, 0u);
    e[1] = make_uint4(0u, 0u, (uint32_t)prp1, (uint32_t)(prp1 >> 32));
    const uint64_t slba = (a.backing + off) >> T->lba_shift;
    e[2] = make_uint4((uint32_t)prp2, (uint32_t)(prp2 >> 32), (uint32_t)slba, (uint32_t)(slba >> 32));
    e[3] = make_uint4(nlb - 1u, 0u, 0u, 0u);
}

/* Tail doorbell for entries before `to`. The entries are ordered before it
 * already (dream_queue_ring). The system fence after it orders it before
 * the ring lock's release at the device, not only among GPU threads, so
 * that a controller's register cannot see the next ringer's larger tail
 * first. */
__device__ inline void dream_nvme_sq_doorbell(dream_rt_state *rt, dream_nvme_queue *Q, uint32_t to)
{
    dream_mmio_store32(Q->sq_db, to & (Q->entries - 1));
    __threadfence_system();
    dream_count(rt, DREAM_C_DOORBELLS, 1);
}

/* One non-blocking try: with the CQ lock, moves every arrived CQE (phase tag
 * as expected) into its mailbox, in CQ order, and rings the CQ head doorbell
 * once for the run. */
__device__ inline void dream_nvme_drain(dream_rt_state *rt, dream_nvme_queue *Q)
{
    if (atomicCAS(&Q->cq_lock, 0u, 1u) != 0u)
        return;
    __threadfence();
    uint32_t head = dream_load_u32(&Q->cq_head), phase = dream_load_u32(&Q->cq_phase);
    uint32_t n = 0;
    while (n < Q->entries) {
        /* cid and status arrive together, the phase tag with them */
        const uint32_t dw3 = *(const volatile uint32_t *)&Q->cq[head].cid;
        if (((dw3 >> 16) & 1u) != phase)
            break;
        const uint32_t cid = dw3 & 0xFFFFu;
        __threadfence(); /* the controller's writes before the mailbox that passes them on */
        *(volatile uint32_t *)&Q->mailbox[cid & (Q->q.depth - 1)] =
            DREAM_NVME_MB_ARRIVED | ((dw3 >> 17) << 16) | cid;
        if (++head == Q->entries) {
            head = 0;
            phase ^= 1u;
        }
        n++;
    }
    if (n) {
        *(volatile uint32_t *)&Q->cq_head = head;
        *(volatile uint32_t *)&Q->cq_phase = phase;
        __threadfence_system(); /* mailboxes and state before the entries are handed back */
        dream_mmio_store32(Q->cq_db, head);
        dream_count(rt, DREAM_C_DOORBELLS, 1);
    }
    __threadfence();
    atomicExch(&Q->cq_lock, 0u);
}

/* Checks ticket t's mailbox once (draining the CQ if it is empty):
 * DREAM_QUEUE_PENDING, or the request's DREAM_IO_* status (the error recorded). */
__device__ inline int dream_nvme_poll(dream_rt_state *rt, dream_nvme_queue *Q, uint32_t qi,
                                      uint32_t t, uint32_t opc, const dream_io_req &r)
{
    uint32_t *box = &Q->mailbox[dream_queue_slot(&Q->q, t)];
    uint32_t mb = dream_load_u32(box);
    if (!(mb & DREAM_NVME_MB_ARRIVED)) {
        dream_nvme_drain(rt, Q);
        mb = dream_load_u32(box);
    }
    if (!(mb & DREAM_NVME_MB_ARRIVED) || (mb & 0xFFFFu) != (t & 0xFFFFu))
        return DREAM_QUEUE_PENDING;
    *(volatile uint32_t *)box = 0u; /* empty before the slot's next ticket can use it */
    __threadfence();                /* the controller's data before the caller's use */
    const uint32_t status = (mb >> 16) & 0x7FFFu;
    if ((status & DREAM_NVME_SF_CODE_MASK) == DREAM_NVME_SC_SUCCESS)
        return DREAM_IO_OK;
    if (!r.ahead)
        dream_fail(rt, DREAM_ERR_TRANSPORT, r.slot, 0, r.page, DREAM_WAIT_NONE, status, qi, t & 0xFFFFu, opc);
    return DREAM_IO_ERROR;
}

/* See transport.cuh: one command per active lane on its SM's queue. */
__device__ inline int dream_transport_io(dream_rt_state *rt, unsigned mask, bool active,
                                         const dream_io_req &r)
{
    const dream_nvme *T = (const dream_nvme *)rt->transport;
    const uint32_t qi = dream_smid() % T->nqueues;
    dream_nvme_queue *Q = T->queues + qi;
    const uint32_t opc = r.dir == DREAM_IO_WRITE ? DREAM_NVME_OPC_WRITE : DREAM_NVME_OPC_READ;
    return dream_queue_request(
        rt, &Q->q, qi, mask, active, r, opc, false, [&](uint32_t t) { dream_nvme_write_sqe(rt, T, Q, t, r); },
        [&](uint32_t, uint32_t to) { dream_nvme_sq_doorbell(rt, Q, to); },
        [&](uint32_t t) { return dream_nvme_poll(rt, Q, qi, t, opc, r); });
}
