"""Python mirror of dream/cuda/include/dream/mlx5.h (and queue.h, and the
soft RNIC's softrnic.h): mlx5 WQE, CQE and doorbell formats as numpy dtypes
(big-endian where the NIC is), the device queue descriptors the host fills,
the soft RNIC's GPU engine memory, and the constants. Checked field by
field against the compiler's layout (dream._softrnic.layouts) by
tests/test_mlx5_layout.py."""
from __future__ import annotations

import numpy as np

# -- constants (C name without the DREAM_ prefix) ----------------------------
QUEUE_MAX_DEPTH = 32768

OPCODE_RDMA_WRITE = 0x08
OPCODE_RDMA_READ = 0x10
WQE_CTRL_SOLICITED = 0x02
WQE_CTRL_CQ_UPDATE = 0x08
WQE_CTRL_FENCE = 0x80
SEND_WQE_BB = 64
SEND_WQE_DS = 16
RDMA_DS = 3
INLINE_SEG = 0x80000000
BYTE_COUNT_MASK = 0x7FFFFFFF

CQE_REQ = 0x0
CQE_REQ_ERR = 0xD
CQE_INVALID = 0xF
CQE_OWNER_MASK = 0x1
CQE_SIZE = 64

SYNDROMES = {
    0x01: "LOCAL_LENGTH_ERR", 0x02: "LOCAL_QP_OP_ERR", 0x04: "LOCAL_PROT_ERR",
    0x05: "WR_FLUSH_ERR", 0x06: "MW_BIND_ERR", 0x10: "BAD_RESP_ERR",
    0x11: "LOCAL_ACCESS_ERR", 0x12: "REMOTE_INVAL_REQ_ERR", 0x13: "REMOTE_ACCESS_ERR",
    0x14: "REMOTE_OP_ERR", 0x15: "TRANSPORT_RETRY_EXC_ERR", 0x16: "RNR_RETRY_EXC_ERR",
    0x22: "REMOTE_ABORTED_ERR",
}
SYND = {name: code for code, name in SYNDROMES.items()}

# the soft RNIC's vendor syndromes: what it found wrong
VENDOR_SYNDROMES = {
    0x00: "none", 0x01: "opcode is not RDMA READ/WRITE",
    0x02: "not ctrl + raddr + one data segment", 0x03: "WQE names another QP",
    0x04: "WQE index is not the slot's", 0x05: "inline data",
    0x06: "longer than the largest message", 0x07: "key of no registered region",
    0x08: "address + length outside the region", 0x09: "region lacks the access right",
}
VS = {"NONE": 0x00, "OPCODE": 0x01, "DS": 0x02, "QPN": 0x03, "WQE_INDEX": 0x04, "INLINE": 0x05,
      "LENGTH": 0x06, "KEY": 0x07, "BOUNDS": 0x08, "ACCESS": 0x09}

RNIC_BAD_CQE = 0x10000

ACCESS_LOCAL_WRITE = 0x1
ACCESS_REMOTE_WRITE = 0x2
ACCESS_REMOTE_READ = 0x4

RCV_DBR, SND_DBR = 0, 1
DOORBELL_BYTES = 8
CQE_INIT_OP_OWN = CQE_INVALID << 4  # fresh CQ entries: invalid, owner 0

# -- wire formats ------------------------------------------------------------
CTRL_SEG = np.dtype([
    ("opmod_idx_opcode", ">u4"), ("qpn_ds", ">u4"), ("signature", "u1"),
    ("dci_stream_channel_id", "u1", (2,)), ("fm_ce_se", "u1"), ("imm", ">u4"),
])
RADDR_SEG = np.dtype([("raddr", ">u8"), ("rkey", ">u4"), ("reserved", ">u4")])
DATA_SEG = np.dtype([("byte_count", ">u4"), ("lkey", ">u4"), ("addr", ">u8")])
RDMA_WQE = np.dtype([("ctrl", CTRL_SEG), ("raddr", RADDR_SEG), ("data", DATA_SEG),
                     ("unused", "u1", (16,))])
CQE64 = np.dtype([
    ("rsvd0", "u1", (32,)), ("srqn_uidx", ">u4"), ("imm_inval_pkey", ">u4"), ("app", "u1"),
    ("app_op", "u1"), ("app_info", ">u2"), ("byte_cnt", ">u4"), ("timestamp", ">u8"),
    ("sop_drop_qpn", ">u4"), ("wqe_counter", ">u2"), ("signature", "u1"), ("op_own", "u1"),
])
ERR_CQE = np.dtype([
    ("rsvd0", "u1", (32,)), ("srqn", ">u4"), ("rsvd1", "u1", (18,)), ("vendor_err_synd", "u1"),
    ("syndrome", "u1"), ("s_wqe_opcode_qpn", ">u4"), ("wqe_counter", ">u2"),
    ("signature", "u1"), ("op_own", "u1"),
])
DBREC = np.dtype([("rcv_counter", ">u4"), ("send_counter", ">u4")])

# -- host-filled descriptors (little-endian, pointers as u8) ------------------
QUEUE = np.dtype([("ticket", "<u4"), ("rung", "<u4"), ("lock", "<u4"), ("depth", "<u4"),
                  ("seq", "<u8")])
RNIC_QUEUE = np.dtype([("q", QUEUE), ("qpn", "<u4"), ("lkey", "<u4"), ("sq", "<u8"),
                       ("cq", "<u8"), ("dbr", "<u8"), ("uar", "<u8")])
RNIC = np.dtype([("queues", "<u8"), ("nqueues", "<u4"), ("flags", "<u4")])
RNIC_LOCAL_ENGINE = 0x1  # flags: the QPs are served on this GPU (GPU-scope fences)

# -- the soft RNIC's GPU engine (softrnic.h) ------------------------------------
SOFTRNIC_KEY_TAG = 0x5D
SOFTRNIC_GPU_THREADS = 256  # threads of a GPU engine block: 8 warps of up to 32 QPs each
SOFTRNIC_REGION = np.dtype([("addr", "<u8"), ("length", "<u8"), ("access", "<u4"), ("live", "<u4")])
SOFTRNIC_COUNTS = np.dtype([(n, "<u8") for n in (
    "doorbells", "bad_doorbells", "wqes", "reads", "writes", "bytes_read", "bytes_written", "cqes",
    "errors", "flushed")])
SOFTRNIC_QP_STATE = np.dtype([("consumer", "<u4"), ("cq_pi", "<u4"), ("error", "<u4"),
                              ("last_dbr", "<u4")])
SOFTRNIC_GPU = np.dtype([("qps", "<u8"), ("state", "<u8"), ("regions", "<u8"), ("counts", "<u8"),
                         ("max_message", "<u8"), ("nqps", "<u4"), ("nregions", "<u4")])

MIRRORS = {
    "dream_queue": QUEUE, "dream_mlx5_ctrl_seg": CTRL_SEG, "dream_mlx5_raddr_seg": RADDR_SEG,
    "dream_mlx5_data_seg": DATA_SEG, "dream_mlx5_rdma_wqe": RDMA_WQE, "dream_mlx5_cqe64": CQE64,
    "dream_mlx5_err_cqe": ERR_CQE, "dream_mlx5_dbrec": DBREC, "dream_rnic_queue": RNIC_QUEUE,
    "dream_rnic": RNIC, "dream_softrnic_region": SOFTRNIC_REGION,
    "dream_softrnic_counts": SOFTRNIC_COUNTS, "dream_softrnic_qp_state": SOFTRNIC_QP_STATE,
    "dream_softrnic_gpu": SOFTRNIC_GPU,
}


def constants() -> dict:
    """The mirrored constants under their C names, for the mirror test."""
    c = {
        "DREAM_QUEUE_MAX_DEPTH": QUEUE_MAX_DEPTH,
        "DREAM_MLX5_OPCODE_RDMA_WRITE": OPCODE_RDMA_WRITE,
        "DREAM_MLX5_OPCODE_RDMA_READ": OPCODE_RDMA_READ,
        "DREAM_MLX5_WQE_CTRL_SOLICITED": WQE_CTRL_SOLICITED,
        "DREAM_MLX5_WQE_CTRL_CQ_UPDATE": WQE_CTRL_CQ_UPDATE,
        "DREAM_MLX5_WQE_CTRL_FENCE": WQE_CTRL_FENCE,
        "DREAM_MLX5_SEND_WQE_BB": SEND_WQE_BB, "DREAM_MLX5_SEND_WQE_DS": SEND_WQE_DS,
        "DREAM_MLX5_RDMA_DS": RDMA_DS, "DREAM_MLX5_INLINE_SEG": INLINE_SEG,
        "DREAM_MLX5_BYTE_COUNT_MASK": BYTE_COUNT_MASK,
        "DREAM_MLX5_CQE_REQ": CQE_REQ, "DREAM_MLX5_CQE_REQ_ERR": CQE_REQ_ERR,
        "DREAM_MLX5_CQE_INVALID": CQE_INVALID, "DREAM_MLX5_CQE_OWNER_MASK": CQE_OWNER_MASK,
        "DREAM_MLX5_CQE_SIZE": CQE_SIZE,
        "DREAM_RNIC_BAD_CQE": RNIC_BAD_CQE, "DREAM_SOFTRNIC_KEY_TAG": SOFTRNIC_KEY_TAG,
        "DREAM_RNIC_LOCAL_ENGINE": RNIC_LOCAL_ENGINE,
        "DREAM_SOFTRNIC_GPU_THREADS": SOFTRNIC_GPU_THREADS,
        "DREAM_ACCESS_LOCAL_WRITE": ACCESS_LOCAL_WRITE,
        "DREAM_ACCESS_REMOTE_WRITE": ACCESS_REMOTE_WRITE,
        "DREAM_ACCESS_REMOTE_READ": ACCESS_REMOTE_READ,
        "DREAM_MLX5_RCV_DBR": RCV_DBR, "DREAM_MLX5_SND_DBR": SND_DBR,
        "DREAM_MLX5_DOORBELL_BYTES": DOORBELL_BYTES,
    }
    for code, name in SYNDROMES.items():
        c["DREAM_MLX5_SYND_" + name] = code
    for name, code in VS.items():
        c["DREAM_SOFTRNIC_VS_" + name] = code
    return c


# -- helpers -------------------------------------------------------------------

def rdma_wqe(index: int, opcode: int, qpn: int, raddr: int, rkey: int, laddr: int, lkey: int,
             length: int, flags: int = WQE_CTRL_CQ_UPDATE, ds: int = RDMA_DS) -> np.ndarray:
    """One RDMA READ/WRITE WQE as rnic.cuh writes it (a 1-element RDMA_WQE array)."""
    w = np.zeros(1, dtype=RDMA_WQE)
    w["ctrl"]["opmod_idx_opcode"] = ((index & 0xFFFF) << 8) | (opcode & 0xFF)
    w["ctrl"]["qpn_ds"] = ((qpn & 0xFFFFFF) << 8) | (ds & 0x3F)
    w["ctrl"]["fm_ce_se"] = flags
    w["raddr"]["raddr"] = raddr
    w["raddr"]["rkey"] = rkey
    w["data"]["byte_count"] = length
    w["data"]["lkey"] = lkey
    w["data"]["addr"] = laddr
    return w


def doorbell_value(wqe: np.ndarray) -> int:
    """The 8-byte UAR write announcing `wqe` as the last posted: its first 8
    bytes, as a little-endian uint64 store of them."""
    return int(np.frombuffer(wqe.tobytes()[:DOORBELL_BYTES], dtype="<u8")[0])


def cqe_owner(op_own: int) -> int:
    return op_own & CQE_OWNER_MASK


def cqe_opcode(op_own: int) -> int:
    return op_own >> 4


def describe_detail(detail, vendor_names: dict | None = None) -> str:
    """Words for dream_error.detail of an RNIC transport error; vendor_names
    reads the vendor syndrome (VENDOR_SYNDROMES for the soft RNIC; a real
    NIC's codes are undocumented)."""
    d0, qp, idx, opcode = (int(x) for x in detail)
    op = {OPCODE_RDMA_READ: "RDMA READ", OPCODE_RDMA_WRITE: "RDMA WRITE"}.get(opcode, f"opcode {opcode:#x}")
    if d0 & RNIC_BAD_CQE:
        return (f"{op} on queue {qp}: the CQE in WQE {idx & 0xFFFF}'s slot reports WQE "
                f"{idx >> 16} (op_own {d0 & 0xFF:#04x}): queue protocol fault")
    synd, vendor = d0 & 0xFF, (d0 >> 8) & 0xFF
    why = SYNDROMES.get(synd, f"syndrome {synd:#x}")
    more = (vendor_names or {}).get(vendor, f"vendor syndrome {vendor:#x}")
    return f"{op} completed with {why} (syndrome {synd:#x}; {more}) on queue {qp}, WQE {idx}"
