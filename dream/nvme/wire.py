"""Python mirror of dream/cuda/include/dream/nvme.h: NVMe SQE/CQE formats,
BAR0 doorbell layout, status codes and the device queue descriptors the host
fills, as numpy dtypes (little-endian, as NVMe is) and constants. Checked
field by field against the compiler's layout (dream._softnvme.layouts) by
tests/test_nvme_wire.py."""
from __future__ import annotations

import numpy as np

from ..verbs.mlx5 import QUEUE, QUEUE_MAX_DEPTH  # queue.h, shared with the RNIC transport

# -- constants (C name without the DREAM_NVME_ prefix) ------------------------
OPC_FLUSH, OPC_WRITE, OPC_READ = 0x00, 0x01, 0x02
OPCODES = {OPC_FLUSH: "FLUSH", OPC_WRITE: "WRITE", OPC_READ: "READ"}
FLAGS_FUSE_MASK, FLAGS_PSDT_MASK = 0x03, 0xC0

SF_CODE_MASK = 0x7FF
SF_DNR = 0x4000
SCT_GENERIC, SCT_COMMAND, SCT_MEDIA = 0, 1, 2


def status(sct: int, sc: int) -> int:
    return ((sct & 7) << 8) | (sc & 0xFF)


# the status codes the software controller returns: (SCT << 8 | SC) -> words
SC = {
    "SUCCESS": status(0, 0x00),
    "INVALID_OPCODE": status(0, 0x01),
    "INVALID_FIELD": status(0, 0x02),
    "DATA_TRANSFER": status(0, 0x04),
    "INVALID_NS": status(0, 0x0B),
    "PRP_OFFSET": status(0, 0x13),
    "WRITE_PROTECTED": status(0, 0x20),
    "LBA_RANGE": status(0, 0x80),
    "WRITE_FAULT": status(2, 0x80),
    "READ_ERROR": status(2, 0x81),
}
STATUS_WORDS = {
    SC["SUCCESS"]: "success",
    SC["INVALID_OPCODE"]: "Invalid Command Opcode",
    SC["INVALID_FIELD"]: "Invalid Field in Command",
    SC["DATA_TRANSFER"]: "Data Transfer Error",
    SC["INVALID_NS"]: "Invalid Namespace or Format",
    SC["PRP_OFFSET"]: "PRP Offset Invalid",
    SC["WRITE_PROTECTED"]: "Namespace is Write Protected",
    SC["LBA_RANGE"]: "LBA Out of Range",
    SC["WRITE_FAULT"]: "Write Fault",
    SC["READ_ERROR"]: "Unrecovered Read Error",
}

REG_CAP, REG_VS, REG_DBS = 0x00, 0x08, 0x1000
CTRL_PAGE_SHIFT = 12
CTRL_PAGE = 1 << CTRL_PAGE_SHIFT
PRP_PER_PAGE = 512
MB_ARRIVED = 0x80000000

# -- wire formats ---------------------------------------------------------------
SQE = np.dtype([
    ("opc", "u1"), ("flags", "u1"), ("cid", "<u2"), ("nsid", "<u4"), ("cdw2", "<u4"),
    ("cdw3", "<u4"), ("mptr", "<u8"), ("prp1", "<u8"), ("prp2", "<u8"), ("slba", "<u8"),
    ("nlb", "<u2"), ("control", "<u2"), ("cdw13", "<u4"), ("cdw14", "<u4"), ("cdw15", "<u4"),
])
CQE = np.dtype([
    ("dw0", "<u4"), ("dw1", "<u4"), ("sq_head", "<u2"), ("sq_id", "<u2"), ("cid", "<u2"),
    ("status", "<u2"),
])

# -- host-filled descriptors (pointers as u8) -------------------------------------
NVME_QUEUE = np.dtype([
    ("q", QUEUE), ("sq", "<u8"), ("cq", "<u8"), ("sq_db", "<u8"), ("cq_db", "<u8"),
    ("mailbox", "<u8"), ("entries", "<u4"), ("qid", "<u4"), ("cq_head", "<u4"),
    ("cq_phase", "<u4"), ("cq_lock", "<u4"), ("pad", "<u4"),
])
NVME = np.dtype([
    ("queues", "<u8"), ("frames_dma", "<u8"), ("prp_lists", "<u8"), ("prp_stride", "<u4"),
    ("nqueues", "<u4"), ("lba_shift", "<u4"), ("flags", "<u4"),
])

MIRRORS = {"dream_queue": QUEUE, "dream_nvme_sqe": SQE, "dream_nvme_cqe": CQE,
           "dream_nvme_queue": NVME_QUEUE, "dream_nvme": NVME}


def constants() -> dict:
    """The mirrored constants under their C names, for the mirror test."""
    c = {"DREAM_QUEUE_MAX_DEPTH": QUEUE_MAX_DEPTH,
         "DREAM_NVME_OPC_FLUSH": OPC_FLUSH, "DREAM_NVME_OPC_WRITE": OPC_WRITE,
         "DREAM_NVME_OPC_READ": OPC_READ,
         "DREAM_NVME_FLAGS_FUSE_MASK": FLAGS_FUSE_MASK,
         "DREAM_NVME_FLAGS_PSDT_MASK": FLAGS_PSDT_MASK,
         "DREAM_NVME_SF_CODE_MASK": SF_CODE_MASK, "DREAM_NVME_SF_DNR": SF_DNR,
         "DREAM_NVME_SCT_GENERIC": SCT_GENERIC, "DREAM_NVME_SCT_COMMAND": SCT_COMMAND,
         "DREAM_NVME_SCT_MEDIA": SCT_MEDIA,
         "DREAM_NVME_REG_CAP": REG_CAP, "DREAM_NVME_REG_VS": REG_VS,
         "DREAM_NVME_REG_DBS": REG_DBS, "DREAM_NVME_CTRL_PAGE_SHIFT": CTRL_PAGE_SHIFT,
         "DREAM_NVME_PRP_PER_PAGE": PRP_PER_PAGE, "DREAM_NVME_MB_ARRIVED": MB_ARRIVED}
    for name, code in SC.items():
        c["DREAM_NVME_SC_" + name] = code
    return c


# -- helpers ---------------------------------------------------------------------

def sq_tail_doorbell(qid: int, dstrd: int) -> int:
    """BAR0 offset of SQ `qid`'s tail doorbell (stride 4 << CAP.DSTRD)."""
    return REG_DBS + (2 * qid) * (4 << dstrd)


def cq_head_doorbell(qid: int, dstrd: int) -> int:
    return REG_DBS + (2 * qid + 1) * (4 << dstrd)


def cap_mqes(cap: int) -> int:
    return cap & 0xFFFF


def cap_dstrd(cap: int) -> int:
    return (cap >> 32) & 0xF


def sqe(opc: int, cid: int, nsid: int, slba: int = 0, nblocks: int = 1, prp1: int = 0,
        prp2: int = 0, flags: int = 0) -> np.ndarray:
    """One command as nvme.cuh writes it (a 1-element SQE array)."""
    e = np.zeros(1, dtype=SQE)
    e["opc"], e["flags"], e["cid"], e["nsid"] = opc, flags, cid, nsid
    e["prp1"], e["prp2"], e["slba"] = prp1, prp2, slba
    e["nlb"] = (nblocks - 1) & 0xFFFF
    return e


def cqe_phase(status_field: int) -> int:
    return status_field & 1


def cqe_status(status_field: int) -> int:
    """The 15-bit status (SC, SCT, CRD, M, DNR) of a CQE's status field."""
    return status_field >> 1


def prp_list_entries(page_bytes: int) -> int:
    """PRP list entries one page of `page_bytes` needs beyond PRP1 (0 when
    PRP1 and PRP2 suffice), chain entries included."""
    pages = page_bytes // CTRL_PAGE
    if pages <= 2:
        return 0
    data = pages - 1
    lists = 1 if data <= PRP_PER_PAGE else 1 + -(-(data - PRP_PER_PAGE) // (PRP_PER_PAGE - 1))
    return data + lists - 1


def fill_prp_list(out: np.ndarray, list_addr: int, first_page: int, pages: int):
    """Writes, into `out` (uint64 view of the list memory at controller address
    `list_addr`, page aligned), the PRP list of a buffer of `pages`
    controller pages starting at address `first_page`: entries for pages 1..,
    the last entry of each full list page chaining to the next one."""
    k, addr = 0, first_page + CTRL_PAGE
    left = pages - 1
    while left:
        slot = k % PRP_PER_PAGE
        if slot == PRP_PER_PAGE - 1 and left > 1:
            out[k] = list_addr + (k + 1) * 8  # the next list page
        else:
            out[k] = addr
            addr += CTRL_PAGE
            left -= 1
        k += 1


def describe_status(s: int) -> str:
    """Words for a 15-bit status (as in dream_error.detail[0])."""
    code = s & SF_CODE_MASK
    words = STATUS_WORDS.get(code, f"status type {code >> 8}, code {code & 0xFF:#04x}")
    dnr = ", do not retry" if s & SF_DNR else ""
    return f"{words} (SCT {code >> 8}, SC {code & 0xFF:#04x}{dnr})"


def describe_detail(detail) -> str:
    """Words for dream_error.detail of an NVMe transport error."""
    s, queue, cid, opc = (int(x) for x in detail)
    op = OPCODES.get(opc, f"opcode {opc:#x}")
    return f"NVMe {op} completed with {describe_status(s)} on I/O queue {queue}, command {cid}"
