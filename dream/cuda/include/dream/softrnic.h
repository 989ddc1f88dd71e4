/* The soft RNIC's service of one WQE, the one source for both of its
 * engines: host threads (dream/cuda/softrnic.cpp) and GPU warps
 * (softrnic_engine.cuh). How a WQE is checked as a NIC would (opcode,
 * segment count, index, QPN, lkey/rkey of a registered region, access
 * rights, address + length inside the region), what it moves, and the CQE
 * that completes it. Plain C with DREAM_HD: the host compiler and NVRTC both
 * compile it. The GPU engine's memory (dream_softrnic_gpu) is here too,
 * mirrored in Python by dream/verbs/mlx5.py (tests/test_mlx5_layout.py). */
#pragma once
#include "dream/mlx5.h"

/* A key names region (key >> 8) of the engine's table; its low byte is this
 * tag, as mlx5 keys carry one. Keys are never reused, so a table index is
 * looked up without a search, on the host and on the GPU alike. */
#define DREAM_SOFTRNIC_KEY_TAG 0x5Du

typedef struct dream_softrnic_region {
    uint64_t addr, length;
    uint32_t access; /* DREAM_ACCESS_* */
    uint32_t live;   /* 0: deregistered (or never registered) */
} dream_softrnic_region;

/* One WQE as the engine found it: the copy it asks for (len 0: none) and the
 * CQE it completes with (synd 0: success; a success makes a CQE only where
 * the WQE asks for one). */
typedef struct dream_softrnic_work {
    uint64_t dst, src, len;
    uint32_t lkey, rkey;
    uint32_t opcode, idx; /* idx: the WQE index its CQE names, the expected one */
    uint32_t synd, vendor;
    uint32_t read, cqe;
} dream_softrnic_work;

/* 0 where `key` grants `need` on [addr, addr + len), else the vendor
 * syndrome. */
static DREAM_HD inline uint32_t dream_softrnic_access(const dream_softrnic_region *table, uint32_t n, uint32_t key,
                                                      uint64_t addr, uint64_t len, uint32_t need)
{
    const uint32_t i = key >> 8;
    if ((key & 0xFFu) != DREAM_SOFTRNIC_KEY_TAG || i >= n || !table[i].live)
        return DREAM_SOFTRNIC_VS_KEY;
    const uint64_t base = table[i].addr, length = table[i].length;
    if (addr < base || addr - base > length || len > length - (addr - base))
        return DREAM_SOFTRNIC_VS_BOUNDS;
    if ((table[i].access & need) != need)
        return DREAM_SOFTRNIC_VS_ACCESS;
    return DREAM_SOFTRNIC_VS_NONE;
}

/* `k` flushed (WR_FLUSH_ERR): a WQE of a QP in the error state moves
 * nothing and completes with an error CQE. */
static DREAM_HD inline void dream_softrnic_flush(dream_softrnic_work *k)
{
    k->synd = DREAM_MLX5_SYND_WR_FLUSH_ERR;
    k->vendor = 0;
    k->len = 0;
    k->cqe = 1;
}

/* WQE number `consumer` of a QP: w is its first 48 bytes as 32-bit words in
 * memory order (big-endian fields). A QP in the error state flushes every
 * WQE; dream_softrnic_fails_qp says which WQE puts it there. */
static DREAM_HD inline dream_softrnic_work dream_softrnic_decode(const uint32_t *w, uint32_t consumer, uint32_t qpn,
                                                                 uint32_t qp_error, uint64_t max_message,
                                                                 const dream_softrnic_region *table, uint32_t n)
{
    dream_softrnic_work k;
    const uint32_t ctrl0 = dream_bswap32(w[0]), ctrl1 = dream_bswap32(w[1]);
    const uint32_t fm_ce_se = w[2] >> 24; /* byte 11 */
    const uint64_t raddr = (uint64_t)dream_bswap32(w[4]) << 32 | dream_bswap32(w[5]);
    const uint32_t byte_count = dream_bswap32(w[8]);
    const uint64_t laddr = (uint64_t)dream_bswap32(w[10]) << 32 | dream_bswap32(w[11]);
    k.rkey = dream_bswap32(w[6]);
    k.lkey = dream_bswap32(w[9]);
    k.opcode = ctrl0 & 0xFFu;
    k.idx = consumer & 0xFFFFu;
    k.read = k.opcode == DREAM_MLX5_OPCODE_RDMA_READ;
    k.len = byte_count & DREAM_MLX5_BYTE_COUNT_MASK;
    if (k.len == 0)
        k.len = 1ull << 31;
    k.dst = k.read ? laddr : raddr;
    k.src = k.read ? raddr : laddr;
    if (qp_error) {
        dream_softrnic_flush(&k);
        return k;
    }
    k.synd = 0;
    k.vendor = 0;
    if (((ctrl0 >> 8) & 0xFFFFu) != k.idx) {
        k.synd = DREAM_MLX5_SYND_LOCAL_QP_OP_ERR, k.vendor = DREAM_SOFTRNIC_VS_WQE_INDEX;
    } else if ((ctrl1 >> 8) != qpn) {
        k.synd = DREAM_MLX5_SYND_LOCAL_QP_OP_ERR, k.vendor = DREAM_SOFTRNIC_VS_QPN;
    } else if (!k.read && k.opcode != DREAM_MLX5_OPCODE_RDMA_WRITE) {
        k.synd = DREAM_MLX5_SYND_LOCAL_QP_OP_ERR, k.vendor = DREAM_SOFTRNIC_VS_OPCODE;
    } else if ((ctrl1 & 0x3Fu) != DREAM_MLX5_RDMA_DS) {
        k.synd = DREAM_MLX5_SYND_LOCAL_QP_OP_ERR, k.vendor = DREAM_SOFTRNIC_VS_DS;
    } else if (byte_count & DREAM_MLX5_INLINE_SEG) {
        k.synd = DREAM_MLX5_SYND_LOCAL_QP_OP_ERR, k.vendor = DREAM_SOFTRNIC_VS_INLINE;
    } else if (k.len > max_message) {
        k.synd = DREAM_MLX5_SYND_LOCAL_LENGTH_ERR, k.vendor = DREAM_SOFTRNIC_VS_LENGTH;
    } else if ((k.vendor = dream_softrnic_access(table, n, k.lkey, laddr, k.len,
                                                 k.read ? DREAM_ACCESS_LOCAL_WRITE : 0u))) {
        k.synd = DREAM_MLX5_SYND_LOCAL_PROT_ERR;
    } else if ((k.vendor = dream_softrnic_access(table, n, k.rkey, raddr, k.len,
                                                 k.read ? DREAM_ACCESS_REMOTE_READ : DREAM_ACCESS_REMOTE_WRITE))) {
        k.synd = DREAM_MLX5_SYND_REMOTE_ACCESS_ERR;
    }
    if (k.synd)
        k.len = 0;
    k.cqe = k.synd != 0 || (fm_ce_se & DREAM_MLX5_WQE_CTRL_CQ_UPDATE) != 0;
    return k;
}

/* Whether `k` puts its QP into the error state (a flush does not: it is
 * one). */
static DREAM_HD inline int dream_softrnic_fails_qp(const dream_softrnic_work *k)
{
    return k->synd != 0 && k->synd != DREAM_MLX5_SYND_WR_FLUSH_ERR;
}

#ifdef __cplusplus
/* Counts `k` as both engines count a WQE served (c: their count sets, whose
 * fields DREAM_SOFTRNIC_COUNTS names). */
template <class Counts> DREAM_HD inline void dream_softrnic_count(Counts &c, const dream_softrnic_work &k)
{
    c.wqes++;
    if (k.synd == 0) {
        (k.read ? c.reads : c.writes)++;
        (k.read ? c.bytes_read : c.bytes_written) += k.len;
    } else if (dream_softrnic_fails_qp(&k)) {
        c.errors++;
    } else {
        c.flushed++;
    }
}
#endif

/* The CQE completing `k` as its 16 32-bit words in memory order; `owner` is
 * the owner bit of its pass over the CQ. The last word (wqe_counter,
 * signature, op_own) hands it over. */
static DREAM_HD inline void dream_softrnic_cqe(uint32_t *c, const dream_softrnic_work *k, uint32_t qpn, uint32_t owner)
{
    for (int i = 0; i < 14; i++)
        c[i] = 0;
    const uint32_t counter = (k->idx & 0xFFu) << 8 | (k->idx >> 8 & 0xFFu); /* big-endian 16 bits */
    const uint32_t op = k->synd ? DREAM_MLX5_CQE_REQ_ERR : DREAM_MLX5_CQE_REQ;
    if (k->synd)
        c[13] = k->vendor << 16 | k->synd << 24; /* vendor_err_synd, syndrome: bytes 54, 55 */
    else
        c[11] = dream_bswap32((uint32_t)k->len); /* byte_cnt */
    c[14] = dream_bswap32((k->opcode & 0xFFu) << 24 | qpn);
    c[15] = counter | (op << 4 | owner) << 24;
}

/* Threads of a GPU engine block (softrnic_engine.cuh): 8 warps, each
 * serving up to 32 QPs. At 256 a thread may hold 232 registers and spills
 * none (512: 128, 300 bytes spilled; serial 4 KiB fault 13.4 -> 12.7 us,
 * H100, session 43). */
#define DREAM_SOFTRNIC_GPU_THREADS 256u

/* The GPU engine's counts, one set of 64-bit words (the host engine's
 * threads count the same, and its passes). */
#define DREAM_SOFTRNIC_COUNTS(X)                                                                          \
    X(doorbells) X(bad_doorbells) X(wqes) X(reads) X(writes) X(bytes_read) X(bytes_written) X(cqes)       \
    X(errors) X(flushed)
#define DREAM_SOFTRNIC_COUNT_WORD(n) uint64_t n;
typedef struct dream_softrnic_counts {
    DREAM_SOFTRNIC_COUNTS(DREAM_SOFTRNIC_COUNT_WORD)
} dream_softrnic_counts;

/* A QP's state in the GPU engine, kept across launches (GPU memory): WQEs
 * taken, CQEs produced, the error state, and the last doorbell record seen
 * (a bad one is counted once). */
typedef struct dream_softrnic_qp_state {
    uint32_t consumer, cq_pi, error, last_dbr;
} dream_softrnic_qp_state;

/* What the GPU engine serves (GPU memory, written by the host between
 * launches): the device runtime's own QP records, the engine's state of
 * each, the region table, and its counts. */
typedef struct dream_softrnic_gpu {
    const dream_rnic_queue *qps;
    dream_softrnic_qp_state *state;
    const dream_softrnic_region *regions;
    dream_softrnic_counts *counts;
    uint64_t max_message;
    uint32_t nqps, nregions;
} dream_softrnic_gpu;

DREAM_STATIC_ASSERT(sizeof(dream_softrnic_region) == 24, "dream_softrnic_region");
DREAM_CHECK_OFFSET(dream_softrnic_region, access, 16);
DREAM_STATIC_ASSERT(sizeof(dream_softrnic_counts) == 80, "dream_softrnic_counts");
DREAM_STATIC_ASSERT(sizeof(dream_softrnic_qp_state) == 16, "dream_softrnic_qp_state");
DREAM_STATIC_ASSERT(sizeof(dream_softrnic_gpu) == 48, "dream_softrnic_gpu");
DREAM_CHECK_OFFSET(dream_softrnic_gpu, max_message, 32);
DREAM_CHECK_OFFSET(dream_softrnic_gpu, nregions, 44);
