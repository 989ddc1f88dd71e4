/* mlx5 wire formats used by the RNIC transport, and the per-queue descriptor
 * the host hands to the device runtime. One source of truth: the GPU side
 * (rnic.cuh), the soft RNIC (softrnic.cpp), the real-NIC setup
 * (dream/verbs/device.py) and the Python mirror (dream/verbs/mlx5.py, checked
 * by tests/test_mlx5_layout.py against dream._softrnic.layouts) all use it.
 *
 * Layouts are those of rdma-core's <infiniband/mlx5dv.h> (struct
 * mlx5_wqe_ctrl_seg, mlx5_wqe_raddr_seg, mlx5_wqe_data_seg, mlx5_cqe64,
 * mlx5_err_cqe) with the same field names. Multi-byte fields are big-endian
 * in memory, as the NIC reads and writes them: device code swaps with
 * __byte_perm, host code with __builtin_bswap (dream_bswap32/64 below). */
#pragma once
#include "dream/queue.h"
#include "dream/stdint.h"

#if defined(__CUDACC__)
#define DREAM_HD __host__ __device__
#else
#define DREAM_HD
#endif

static DREAM_HD inline uint32_t dream_bswap32(uint32_t x)
{
#if defined(__CUDA_ARCH__)
    return __byte_perm(x, 0u, 0x0123u);
#else
    return __builtin_bswap32(x);
#endif
}

static DREAM_HD inline uint64_t dream_bswap64(uint64_t x)
{
    return ((uint64_t)dream_bswap32((uint32_t)x) << 32) | dream_bswap32((uint32_t)(x >> 32));
}

/* Send opcodes (ctrl.opmod_idx_opcode bits 7:0) */
#define DREAM_MLX5_OPCODE_RDMA_WRITE 0x08u
#define DREAM_MLX5_OPCODE_RDMA_READ 0x10u

/* ctrl.fm_ce_se */
#define DREAM_MLX5_WQE_CTRL_SOLICITED 0x02u /* 1 << 1 */
#define DREAM_MLX5_WQE_CTRL_CQ_UPDATE 0x08u /* 2 << 2: always write a CQE */
#define DREAM_MLX5_WQE_CTRL_FENCE 0x80u     /* 4 << 5 */

#define DREAM_MLX5_SEND_WQE_BB 64u /* basic block: WQE indices count these */
#define DREAM_MLX5_SEND_WQE_DS 16u /* ctrl.qpn_ds counts 16-byte segments */
#define DREAM_MLX5_RDMA_DS 3u      /* ctrl + raddr + one data segment */
#define DREAM_MLX5_INLINE_SEG 0x80000000u /* data_seg.byte_count: inline data (unsupported) */
#define DREAM_MLX5_BYTE_COUNT_MASK 0x7FFFFFFFu /* 0 means 2^31 bytes */

/* CQE opcodes (op_own bits 7:4) and the owner bit (bit 0) */
#define DREAM_MLX5_CQE_REQ 0x0u
#define DREAM_MLX5_CQE_REQ_ERR 0xDu
#define DREAM_MLX5_CQE_INVALID 0xFu /* freshly initialized entries: op_own = 0xF0 */
#define DREAM_MLX5_CQE_OWNER_MASK 0x1u
#define DREAM_MLX5_CQE_SIZE 64u

/* Error CQE syndromes (mlx5_err_cqe.syndrome) */
#define DREAM_MLX5_SYND_LOCAL_LENGTH_ERR 0x01u
#define DREAM_MLX5_SYND_LOCAL_QP_OP_ERR 0x02u
#define DREAM_MLX5_SYND_LOCAL_PROT_ERR 0x04u
#define DREAM_MLX5_SYND_WR_FLUSH_ERR 0x05u
#define DREAM_MLX5_SYND_MW_BIND_ERR 0x06u
#define DREAM_MLX5_SYND_BAD_RESP_ERR 0x10u
#define DREAM_MLX5_SYND_LOCAL_ACCESS_ERR 0x11u
#define DREAM_MLX5_SYND_REMOTE_INVAL_REQ_ERR 0x12u
#define DREAM_MLX5_SYND_REMOTE_ACCESS_ERR 0x13u
#define DREAM_MLX5_SYND_REMOTE_OP_ERR 0x14u
#define DREAM_MLX5_SYND_TRANSPORT_RETRY_EXC_ERR 0x15u
#define DREAM_MLX5_SYND_RNR_RETRY_EXC_ERR 0x16u
#define DREAM_MLX5_SYND_REMOTE_ABORTED_ERR 0x22u

/* Vendor syndromes (mlx5_err_cqe.vendor_err_synd) of the soft RNIC: what it
 * found wrong. A real NIC puts its own undocumented codes here. */
#define DREAM_SOFTRNIC_VS_NONE 0x00u
#define DREAM_SOFTRNIC_VS_OPCODE 0x01u     /* not RDMA READ/WRITE */
#define DREAM_SOFTRNIC_VS_DS 0x02u         /* not ctrl + raddr + one data segment */
#define DREAM_SOFTRNIC_VS_QPN 0x03u        /* ctrl.qpn_ds names another QP */
#define DREAM_SOFTRNIC_VS_WQE_INDEX 0x04u  /* ctrl index is not the slot's */
#define DREAM_SOFTRNIC_VS_INLINE 0x05u     /* inline data segment */
#define DREAM_SOFTRNIC_VS_LENGTH 0x06u     /* longer than the largest message */
#define DREAM_SOFTRNIC_VS_KEY 0x07u        /* key of no registered region */
#define DREAM_SOFTRNIC_VS_BOUNDS 0x08u     /* address + length outside the region */
#define DREAM_SOFTRNIC_VS_ACCESS 0x09u     /* region lacks the access right */

/* dream_error.detail[0] of an RNIC transport error: syndrome | vendor << 8,
 * or DREAM_RNIC_BAD_CQE | op_own for a CQE that is not the one its slot
 * expects (a protocol fault, not a NIC error; detail[2] then holds the
 * expected WQE index | the CQE's wqe_counter << 16). */
#define DREAM_RNIC_BAD_CQE 0x10000u

/* Memory region access rights (the ibv_access_flags values) */
#define DREAM_ACCESS_LOCAL_WRITE 0x1u
#define DREAM_ACCESS_REMOTE_WRITE 0x2u
#define DREAM_ACCESS_REMOTE_READ 0x4u

/* Doorbell record: dbrec[MLX5_SND_DBR] holds the send counter (WQE index of
 * the next WQE, 16 bits, big-endian). */
#define DREAM_MLX5_RCV_DBR 0
#define DREAM_MLX5_SND_DBR 1

typedef struct dream_mlx5_ctrl_seg {
    uint32_t opmod_idx_opcode; /* opmod 31:24, WQE index 23:8, opcode 7:0 */
    uint32_t qpn_ds;           /* QPN 31:8, number of 16-byte segments 5:0 */
    uint8_t signature;
    uint8_t dci_stream_channel_id[2];
    uint8_t fm_ce_se; /* fence mode, completion, solicited */
    uint32_t imm;
} dream_mlx5_ctrl_seg;

typedef struct dream_mlx5_raddr_seg {
    uint64_t raddr;
    uint32_t rkey;
    uint32_t reserved;
} dream_mlx5_raddr_seg;

typedef struct dream_mlx5_data_seg {
    uint32_t byte_count;
    uint32_t lkey;
    uint64_t addr;
} dream_mlx5_data_seg;

/* An RDMA READ/WRITE WQE with one scatter entry: one 64-byte basic block. */
typedef struct dream_mlx5_rdma_wqe {
    dream_mlx5_ctrl_seg ctrl;
    dream_mlx5_raddr_seg raddr;
    dream_mlx5_data_seg data;
    uint8_t unused[16];
} dream_mlx5_rdma_wqe;

/* Requester CQE (the fields a send queue's completions use). */
typedef struct dream_mlx5_cqe64 {
    uint8_t rsvd0[32];
    uint32_t srqn_uidx;
    uint32_t imm_inval_pkey;
    uint8_t app;
    uint8_t app_op;
    uint16_t app_info;
    uint32_t byte_cnt;
    uint64_t timestamp;
    uint32_t sop_drop_qpn; /* send opcode 31:24, QPN 23:0 */
    uint16_t wqe_counter;  /* WQE index completed */
    uint8_t signature;
    uint8_t op_own;        /* CQE opcode 7:4, owner 0 */
} dream_mlx5_cqe64;

typedef struct dream_mlx5_err_cqe {
    uint8_t rsvd0[32];
    uint32_t srqn;
    uint8_t rsvd1[18];
    uint8_t vendor_err_synd;
    uint8_t syndrome;
    uint32_t s_wqe_opcode_qpn; /* send opcode 31:24, QPN 23:0 */
    uint16_t wqe_counter;
    uint8_t signature;
    uint8_t op_own;
} dream_mlx5_err_cqe;

typedef struct dream_mlx5_dbrec {
    uint32_t rcv_counter;
    uint32_t send_counter;
} dream_mlx5_dbrec;

/* The UAR doorbell is one 8-byte store of the first 8 bytes of the last
 * posted WQE's ctrl segment (opmod_idx_opcode, qpn_ds; BlueFlame off), made
 * after the doorbell record. */
#define DREAM_MLX5_DOORBELL_BYTES 8u

/* One queue pair as the device runtime uses it; filled by the host (soft
 * RNIC: dream/verbs/softrnic.py; ConnectX: dream/verbs/device.py).
 * - q: the generic ticket/doorbell state (queue.h); q.depth is the SQ size in
 *   WQEBBs and the CQ size in CQEs (equal: every WQE asks for a CQE, CQE
 *   number t completes WQE t). The CQ must ignore overrun (cqc.oi = 1, as
 *   NVIDIA's IBGDA creates its CQs): the device does not update the CQ
 *   doorbell record; a CQE is never overwritten before it is read because
 *   ticket t + depth is posted only after ticket t's CQE was consumed.
 * - sq, cq: the rings (GPU memory, or pinned host memory mapped into the GPU);
 *   CQEs start as op_own = 0xF0 (invalid, owner 0).
 * - dbr: the QP's doorbell record; uar: the 8-byte doorbell register as the
 *   GPU addresses it.
 * - qpn: QP number (24 bits); lkey: key of the frame ring's memory region. */
typedef struct dream_rnic_queue {
    dream_queue q;
    uint32_t qpn;
    uint32_t lkey;
    uint8_t *sq;
    uint8_t *cq;
    dream_mlx5_dbrec *dbr;
    uint64_t *uar;
} dream_rnic_queue;

/* dream_rnic.flags: the QPs are served on this GPU (the soft RNIC's GPU
 * engine), so a WQE's fences are at GPU scope (queue.cuh). */
#define DREAM_RNIC_LOCAL_ENGINE 0x1u

/* dream_rt_state.transport of the RNIC backends. A leader uses queue
 * smid % nqueues. */
typedef struct dream_rnic {
    dream_rnic_queue *queues;
    uint32_t nqueues;
    uint32_t flags; /* DREAM_RNIC_* */
} dream_rnic;

DREAM_STATIC_ASSERT(sizeof(dream_mlx5_ctrl_seg) == 16, "ctrl seg");
DREAM_CHECK_OFFSET(dream_mlx5_ctrl_seg, qpn_ds, 4);
DREAM_CHECK_OFFSET(dream_mlx5_ctrl_seg, signature, 8);
DREAM_CHECK_OFFSET(dream_mlx5_ctrl_seg, dci_stream_channel_id, 9);
DREAM_CHECK_OFFSET(dream_mlx5_ctrl_seg, fm_ce_se, 11);
DREAM_CHECK_OFFSET(dream_mlx5_ctrl_seg, imm, 12);
DREAM_STATIC_ASSERT(sizeof(dream_mlx5_raddr_seg) == 16, "raddr seg");
DREAM_CHECK_OFFSET(dream_mlx5_raddr_seg, rkey, 8);
DREAM_STATIC_ASSERT(sizeof(dream_mlx5_data_seg) == 16, "data seg");
DREAM_CHECK_OFFSET(dream_mlx5_data_seg, lkey, 4);
DREAM_CHECK_OFFSET(dream_mlx5_data_seg, addr, 8);
DREAM_STATIC_ASSERT(sizeof(dream_mlx5_rdma_wqe) == DREAM_MLX5_SEND_WQE_BB, "rdma wqe");
DREAM_CHECK_OFFSET(dream_mlx5_rdma_wqe, raddr, 16);
DREAM_CHECK_OFFSET(dream_mlx5_rdma_wqe, data, 32);
DREAM_STATIC_ASSERT(sizeof(dream_mlx5_cqe64) == DREAM_MLX5_CQE_SIZE, "cqe64");
DREAM_CHECK_OFFSET(dream_mlx5_cqe64, srqn_uidx, 32);
DREAM_CHECK_OFFSET(dream_mlx5_cqe64, byte_cnt, 44);
DREAM_CHECK_OFFSET(dream_mlx5_cqe64, timestamp, 48);
DREAM_CHECK_OFFSET(dream_mlx5_cqe64, sop_drop_qpn, 56);
DREAM_CHECK_OFFSET(dream_mlx5_cqe64, wqe_counter, 60);
DREAM_CHECK_OFFSET(dream_mlx5_cqe64, signature, 62);
DREAM_CHECK_OFFSET(dream_mlx5_cqe64, op_own, 63);
DREAM_STATIC_ASSERT(sizeof(dream_mlx5_err_cqe) == DREAM_MLX5_CQE_SIZE, "err cqe");
DREAM_CHECK_OFFSET(dream_mlx5_err_cqe, srqn, 32);
DREAM_CHECK_OFFSET(dream_mlx5_err_cqe, vendor_err_synd, 54);
DREAM_CHECK_OFFSET(dream_mlx5_err_cqe, syndrome, 55);
DREAM_CHECK_OFFSET(dream_mlx5_err_cqe, s_wqe_opcode_qpn, 56);
DREAM_CHECK_OFFSET(dream_mlx5_err_cqe, wqe_counter, 60);
DREAM_CHECK_OFFSET(dream_mlx5_err_cqe, op_own, 63);
DREAM_STATIC_ASSERT(sizeof(dream_mlx5_dbrec) == 8, "dbrec");
DREAM_CHECK_OFFSET(dream_mlx5_dbrec, send_counter, 4 * DREAM_MLX5_SND_DBR);
DREAM_STATIC_ASSERT(sizeof(dream_rnic_queue) == 64, "dream_rnic_queue");
DREAM_CHECK_OFFSET(dream_rnic_queue, qpn, 24);
DREAM_CHECK_OFFSET(dream_rnic_queue, lkey, 28);
DREAM_CHECK_OFFSET(dream_rnic_queue, sq, 32);
DREAM_CHECK_OFFSET(dream_rnic_queue, cq, 40);
DREAM_CHECK_OFFSET(dream_rnic_queue, dbr, 48);
DREAM_CHECK_OFFSET(dream_rnic_queue, uar, 56);
DREAM_STATIC_ASSERT(sizeof(dream_rnic) == 16, "dream_rnic");
DREAM_CHECK_OFFSET(dream_rnic, nqueues, 8);
