/* NVMe wire formats (NVM Express Base 2.0 / NVM Command Set 1.0) as the GPU
 * leaders write them and a controller reads them: the one source of truth
 * for nvme.cuh (device), softnvme.cpp (the software controller) and
 * dream/nvme/wire.py (the Python mirror, checked by tests/test_nvme_wire.py
 * against the offsets the compiler reports: dream._softnvme.layouts).
 * Little-endian, as NVMe is. Plain C so NVRTC, nvcc and g++ agree. */
#pragma once
#include "dream/queue.h"
#include "dream/stdint.h"

/* NVM command set opcodes used (I/O queues). */
#define DREAM_NVME_OPC_FLUSH 0x00u
#define DREAM_NVME_OPC_WRITE 0x01u
#define DREAM_NVME_OPC_READ 0x02u

/* Submission queue entry, 64 bytes. */
typedef struct dream_nvme_sqe {
    uint8_t opc;      /* CDW0[7:0] opcode */
    uint8_t flags;    /* CDW0[9:8] FUSE, [15:14] PSDT (0: PRPs; dream sends 0) */
    uint16_t cid;     /* CDW0[31:16] command identifier, unique among the SQ's outstanding */
    uint32_t nsid;    /* CDW1 namespace */
    uint32_t cdw2;
    uint32_t cdw3;
    uint64_t mptr;    /* CDW4-5 metadata pointer (unused: no metadata) */
    uint64_t prp1;    /* CDW6-7 first data page, may start inside a controller page */
    uint64_t prp2;    /* CDW8-9 second page, or a PRP list when more than two pages */
    uint64_t slba;    /* CDW10-11 starting LBA */
    uint16_t nlb;     /* CDW12[15:0] number of logical blocks minus one */
    uint16_t control; /* CDW12[31:16] LR, FUA, PRINFO, DTYPE */
    uint32_t cdw13;   /* dataset management hints */
    uint32_t cdw14;
    uint32_t cdw15;
} dream_nvme_sqe;

#define DREAM_NVME_FLAGS_FUSE_MASK 0x03u
#define DREAM_NVME_FLAGS_PSDT_MASK 0xC0u

/* Completion queue entry, 16 bytes. The controller writes `status` (with the
 * phase tag) last: a host that sees the expected phase may read the rest. */
typedef struct dream_nvme_cqe {
    uint32_t dw0;     /* command specific */
    uint32_t dw1;
    uint16_t sq_head; /* SQ entries the controller has consumed (SQHD) */
    uint16_t sq_id;
    uint16_t cid;
    uint16_t status;  /* bit 0 phase tag, [15:1] status (DREAM_NVME_SF_*) */
} dream_nvme_cqe;

/* The 15-bit status (CQE status >> 1): SC [7:0], SCT [10:8], CRD [12:11],
 * M [13], DNR [14]. A command succeeded iff SCT and SC are zero. */
#define DREAM_NVME_STATUS(sct, sc) ((((sct) & 7u) << 8) | ((sc) & 0xFFu))
#define DREAM_NVME_SF_CODE_MASK 0x7FFu /* SCT | SC */
#define DREAM_NVME_SF_DNR 0x4000u      /* do not retry */
#define DREAM_NVME_SCT_GENERIC 0u
#define DREAM_NVME_SCT_COMMAND 1u
#define DREAM_NVME_SCT_MEDIA 2u

/* Status codes the software controller returns (SCT << 8 | SC). */
#define DREAM_NVME_SC_SUCCESS DREAM_NVME_STATUS(0u, 0x00u)
#define DREAM_NVME_SC_INVALID_OPCODE DREAM_NVME_STATUS(0u, 0x01u)
#define DREAM_NVME_SC_INVALID_FIELD DREAM_NVME_STATUS(0u, 0x02u)   /* FUSE, PSDT, > MDTS */
#define DREAM_NVME_SC_DATA_TRANSFER DREAM_NVME_STATUS(0u, 0x04u)   /* DMA outside a mapped window */
#define DREAM_NVME_SC_INVALID_NS DREAM_NVME_STATUS(0u, 0x0Bu)
#define DREAM_NVME_SC_PRP_OFFSET DREAM_NVME_STATUS(0u, 0x13u)      /* misaligned PRP entry */
#define DREAM_NVME_SC_WRITE_PROTECTED DREAM_NVME_STATUS(0u, 0x20u) /* write to a read-only ns */
#define DREAM_NVME_SC_LBA_RANGE DREAM_NVME_STATUS(0u, 0x80u)       /* beyond the namespace */
#define DREAM_NVME_SC_WRITE_FAULT DREAM_NVME_STATUS(2u, 0x80u)     /* the backing write failed */
#define DREAM_NVME_SC_READ_ERROR DREAM_NVME_STATUS(2u, 0x81u)      /* the backing read failed */

/* Controller registers (BAR0). Doorbells: SQ y tail at 0x1000 + 2y * stride,
 * CQ y head at 0x1000 + (2y + 1) * stride, stride = 4 << CAP.DSTRD. Queue 0
 * is the admin queue; I/O queues are 1.. */
#define DREAM_NVME_REG_CAP 0x00u
#define DREAM_NVME_REG_VS 0x08u
#define DREAM_NVME_REG_DBS 0x1000u
#define DREAM_NVME_CAP_MQES(cap) ((uint32_t)((cap) & 0xFFFFu)) /* max entries - 1 */
#define DREAM_NVME_CAP_DSTRD(cap) ((uint32_t)(((cap) >> 32) & 0xFu))
#define DREAM_NVME_SQ_TDBL(qid, dstrd) (DREAM_NVME_REG_DBS + (2u * (qid)) * (4u << (dstrd)))
#define DREAM_NVME_CQ_HDBL(qid, dstrd) (DREAM_NVME_REG_DBS + (2u * (qid) + 1u) * (4u << (dstrd)))

/* The controller memory page (CC.MPS = 0): PRP entries address 4 KiB pages. */
#define DREAM_NVME_CTRL_PAGE_SHIFT 12u
#define DREAM_NVME_PRP_PER_PAGE 512u /* 8-byte entries; the last one chains to the next list */

/* One I/O queue pair as the device runtime uses it (the host fills it; GPU
 * memory). A leader's ticket t (queue.h, depth D) names SQ entry
 * t & (entries - 1) and command id t & 0xFFFF. SQ and CQ have entries = 2D
 * > D requests in flight, so neither is ever full (a full NVMe queue holds
 * entries - 1), and the SQ head the CQEs report is not needed.
 * Completions arrive in any order: whoever holds cq_lock drains the CQ by
 * phase tag in order, posts each status into mailbox[cid & (D - 1)]
 * (DREAM_NVME_MB_*) and rings the CQ head doorbell once for the run; each
 * leader watches its own mailbox word. */
typedef struct dream_nvme_queue {
    dream_queue q;
    dream_nvme_sqe *sq;
    dream_nvme_cqe *cq;
    uint32_t *sq_db;     /* SQ tail doorbell (BAR0, or pinned host memory standing in) */
    uint32_t *cq_db;     /* CQ head doorbell */
    uint32_t *mailbox;   /* D words, GPU memory, 0 = empty */
    uint32_t entries;    /* SQ and CQ entries, 2D */
    uint32_t qid;
    uint32_t cq_head;    /* next CQ entry to drain (drainer state) */
    uint32_t cq_phase;   /* phase tag expected at cq_head: 1 on the first pass */
    uint32_t cq_lock;
    uint32_t pad;
} dream_nvme_queue;

#define DREAM_NVME_MB_ARRIVED 0x80000000u /* | (status15 << 16) | cid */

/* The nvme transport's device state (dream_rt_state.transport). */
typedef struct dream_nvme {
    dream_nvme_queue *queues;
    uint64_t frames_dma;  /* the frame ring as the controller addresses it: the
                             soft controller uses the device pointer; a real
                             controller needs the ring's bus address (seam) */
    uint64_t prp_lists;   /* controller address of frame 0's PRP list, or 0 */
    uint32_t prp_stride;  /* bytes between consecutive frames' PRP lists */
    uint32_t nqueues;
    uint32_t lba_shift;   /* log2 of the LBA size, one format for every namespace */
    uint32_t flags;
} dream_nvme;

DREAM_STATIC_ASSERT(sizeof(dream_nvme_sqe) == 64, "dream_nvme_sqe");
DREAM_CHECK_OFFSET(dream_nvme_sqe, opc, 0);
DREAM_CHECK_OFFSET(dream_nvme_sqe, flags, 1);
DREAM_CHECK_OFFSET(dream_nvme_sqe, cid, 2);
DREAM_CHECK_OFFSET(dream_nvme_sqe, nsid, 4);
DREAM_CHECK_OFFSET(dream_nvme_sqe, cdw2, 8);
DREAM_CHECK_OFFSET(dream_nvme_sqe, cdw3, 12);
DREAM_CHECK_OFFSET(dream_nvme_sqe, mptr, 16);
DREAM_CHECK_OFFSET(dream_nvme_sqe, prp1, 24);
DREAM_CHECK_OFFSET(dream_nvme_sqe, prp2, 32);
DREAM_CHECK_OFFSET(dream_nvme_sqe, slba, 40);
DREAM_CHECK_OFFSET(dream_nvme_sqe, nlb, 48);
DREAM_CHECK_OFFSET(dream_nvme_sqe, control, 50);
DREAM_CHECK_OFFSET(dream_nvme_sqe, cdw13, 52);
DREAM_CHECK_OFFSET(dream_nvme_sqe, cdw14, 56);
DREAM_CHECK_OFFSET(dream_nvme_sqe, cdw15, 60);
DREAM_STATIC_ASSERT(sizeof(dream_nvme_cqe) == 16, "dream_nvme_cqe");
DREAM_CHECK_OFFSET(dream_nvme_cqe, dw0, 0);
DREAM_CHECK_OFFSET(dream_nvme_cqe, dw1, 4);
DREAM_CHECK_OFFSET(dream_nvme_cqe, sq_head, 8);
DREAM_CHECK_OFFSET(dream_nvme_cqe, sq_id, 10);
DREAM_CHECK_OFFSET(dream_nvme_cqe, cid, 12);
DREAM_CHECK_OFFSET(dream_nvme_cqe, status, 14);
DREAM_STATIC_ASSERT(sizeof(dream_nvme_queue) == 88, "dream_nvme_queue");
DREAM_CHECK_OFFSET(dream_nvme_queue, sq, 24);
DREAM_CHECK_OFFSET(dream_nvme_queue, mailbox, 56);
DREAM_CHECK_OFFSET(dream_nvme_queue, entries, 64);
DREAM_CHECK_OFFSET(dream_nvme_queue, cq_lock, 80);
DREAM_STATIC_ASSERT(sizeof(dream_nvme) == 40, "dream_nvme");
DREAM_CHECK_OFFSET(dream_nvme, frames_dma, 8);
DREAM_CHECK_OFFSET(dream_nvme, prp_stride, 24);
DREAM_CHECK_OFFSET(dream_nvme, lba_shift, 32);
