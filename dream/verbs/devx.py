"""DevX commands for the rnic backend's queues: a CQ and an RC QP whose
buffers and doorbell records are DevX umems (GPU memory, as NVIDIA's IBGDA
does, so the stock mlx5 driver suffices), and the QP's RST->INIT->RTR->RTS
attributes for loopback (the QP is connected to itself: it is requester and
responder, and its RDMA READs/WRITEs reach host memory of this machine).

Only byte building here (pure Python, tested on CPU); device.py sends them.
Values follow rdma-core's DevX RC tests (tests/mlx5_base.py), DPDK's
forced-loopback QP (mlx5_devx_cmd_modify_qp_state) and NVSHMEM's IBGDA.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import prm

# MLX5_CMD_OP_* (mlx5_ifc.h)
CMD_CREATE_MKEY = 0x200
CMD_CREATE_CQ = 0x400
CMD_CREATE_QP = 0x500
CMD_RST2INIT_QP = 0x502
CMD_INIT2RTR_QP = 0x503
CMD_RTR2RTS_QP = 0x504

MKC_ACCESS_MODE_MTT = 0x1
QPC_ST_RC = 0x0
QPC_PM_STATE_MIGRATED = 0x3
QPC_RQ_TYPE_ZERO_LEN = 0x3        # no receive queue: only RDMA READ/WRITE are posted
QPC_TS_FORMAT_DEFAULT = 0x1
CQE_SIZE_64B = 0x0

# enum ibv_access_flags (verbs.h); tests compare with pyverbs.enums where present.
IBV_ACCESS_LOCAL_WRITE = 1
IBV_ACCESS_REMOTE_WRITE = 2
IBV_ACCESS_REMOTE_READ = 4
IBV_ACCESS_REMOTE_ATOMIC = 8

# Host backing pages are the remote side of both directions: RDMA READ
# (fault) reads them, RDMA WRITE (write-back) writes them; remote write
# needs local write. Relaxed ordering stays off: a CQE must not overtake the
# page data it reports.
BACKING_ACCESS = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE
# Frames are the local side: READ responses are written into them.
FRAMES_ACCESS = IBV_ACCESS_LOCAL_WRITE
# Queue umems: the NIC reads WQEs and doorbell records, writes CQEs.
QUEUE_ACCESS = IBV_ACCESS_LOCAL_WRITE
# The responder half of the self-connected QP serves its own READs/WRITEs.
QP_REMOTE_ACCESS = IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE

# enum ibv_mtu == qpc.mtu encoding: 1 = 256 B ... 5 = 4096 B
MTU_4096 = 5
LOG_MSG_MAX = 30          # largest message 1 GiB; pages are at most 16 MiB
RETRY_COUNT = 7
RNR_RETRY = 7
ACK_TIMEOUT = 14          # 4.096 us * 2^14 = 67 ms per transport retry
MIN_RNR_NAK = 12
ROCE_HOP_LIMIT = 64
ROCE_UDP_SPORT = 0xc000   # any source port of the RoCEv2 range


def ilog2(n: int) -> int:
    """log2 of a power of two."""
    if n < 1 or n & (n - 1):
        raise ValueError(f"{n} is not a power of two")
    return n.bit_length() - 1


def floor_log2(n: int) -> int:
    return max(n, 1).bit_length() - 1


@dataclass(frozen=True)
class LoopbackPath:
    """How the QP reaches itself. force: the NIC's forced loopback (qpc
    address path fl=1, as DPDK's loopback QPs), no addressing and works with
    the port down; otherwise an address of this port: its LID (InfiniBand) or
    its GID and MAC (RoCE)."""
    port: int
    force: bool = True
    lid: int = 0
    gid: bytes = b""
    mac: bytes = b""
    gid_index: int = 0

    def fields(self) -> dict:
        p = "qpc__primary_address_path__"
        out = {p + "vhca_port_num": self.port}
        if self.force:
            out[p + "fl"] = 1
        elif self.gid:
            if len(self.gid) != 16 or len(self.mac) != 6:
                raise ValueError("RoCE loopback needs a 16-byte GID and a 6-byte MAC")
            out.update({p + "rgid_rip": self.gid, p + "rmac": self.mac,
                        p + "src_addr_index": self.gid_index,
                        p + "hop_limit": ROCE_HOP_LIMIT, p + "udp_sport": ROCE_UDP_SPORT})
        else:
            out[p + "rlid"] = self.lid
        return out


def qp_access_fields(access: int) -> dict:
    """qpc responder permissions from ibv access flags."""
    return {"qpc__rre": int(bool(access & IBV_ACCESS_REMOTE_READ)),
            "qpc__rwe": int(bool(access & IBV_ACCESS_REMOTE_WRITE)),
            "qpc__rae": int(bool(access & IBV_ACCESS_REMOTE_ATOMIC))}


def create_mkey_in(*, pdn: int, start_addr: int, length: int, umem_id: int,
                   access: int) -> bytes:
    """A memory key over umem `umem_id` (offset 0) that the NIC addresses as
    [start_addr, start_addr + length): the frame ring at its GPU virtual
    addresses, which is what the device writes into data segments. (A
    pyverbs DmaBufMR would register it at IOVA 0 instead.) As rdma-core's
    CUDA umem test: MTT access mode, not bound to a QP (qpn 0xffffff)."""
    return prm.CREATE_MKEY_IN.pack(
        opcode=CMD_CREATE_MKEY, mkey_umem_valid=1, mkey_umem_id=umem_id, mkey_umem_offset=0,
        memory_key_mkey_entry__access_mode_1_0=MKC_ACCESS_MODE_MTT,
        memory_key_mkey_entry__lr=1,
        memory_key_mkey_entry__lw=int(bool(access & IBV_ACCESS_LOCAL_WRITE)),
        memory_key_mkey_entry__rr=int(bool(access & IBV_ACCESS_REMOTE_READ)),
        memory_key_mkey_entry__rw=int(bool(access & IBV_ACCESS_REMOTE_WRITE)),
        memory_key_mkey_entry__qpn=0xFFFFFF, memory_key_mkey_entry__pd=pdn,
        memory_key_mkey_entry__start_addr=start_addr, memory_key_mkey_entry__len=length)


def mkey_to_lkey(mkey_index: int) -> int:
    """The key WQEs carry: mkey index above the 8-bit variant (0 here)."""
    return (mkey_index << 8) & 0xFFFFFFFF


def create_cq_in(*, depth: int, uar_page: int, eqn: int, cq_umem_id: int,
                 dbr_umem_id: int, dbr_offset: int) -> bytes:
    """A CQ of `depth` 64-byte CQEs in umem `cq_umem_id` (offset 0), its
    doorbell record at `dbr_offset` in umem `dbr_umem_id`. Overrun is
    ignored (oi): the GPU recycles a slot only after reading its CQE, so an
    SQ and CQ of the same depth cannot overrun, and the GPU need not keep the
    consumer counter in the doorbell record up to date."""
    if dbr_offset % 8:
        raise ValueError(f"CQ doorbell record offset {dbr_offset} is not 8-byte aligned")
    return prm.CREATE_CQ_IN.pack(
        opcode=CMD_CREATE_CQ, cq_umem_id=cq_umem_id, cq_umem_valid=1, cq_umem_offset=0,
        cq_context__cqe_sz=CQE_SIZE_64B, cq_context__oi=1,
        cq_context__log_cq_size=ilog2(depth), cq_context__uar_page=uar_page,
        cq_context__c_eqn_or_apu_element=eqn,
        cq_context__dbr_umem_valid=1, cq_context__dbr_umem_id=dbr_umem_id,
        cq_context__dbr_addr=dbr_offset)


def create_qp_in(*, depth: int, pdn: int, uar_page: int, cqn: int, wq_umem_id: int,
                 dbr_umem_id: int, dbr_offset: int, user_index: int) -> bytes:
    """An RC QP with a send queue of `depth` 64-byte WQE basic blocks in umem
    `wq_umem_id` (offset 0), no receive queue, completions to CQ `cqn`, its
    doorbell record (send counter at +4) at `dbr_offset` in `dbr_umem_id`."""
    if dbr_offset % 8:
        raise ValueError(f"QP doorbell record offset {dbr_offset} is not 8-byte aligned")
    return prm.CREATE_QP_IN.pack(
        opcode=CMD_CREATE_QP, wq_umem_id=wq_umem_id, wq_umem_valid=1, wq_umem_offset=0,
        qpc__st=QPC_ST_RC, qpc__pm_state=QPC_PM_STATE_MIGRATED, qpc__pd=pdn,
        qpc__uar_page=uar_page, qpc__user_index=user_index,
        qpc__log_sq_size=ilog2(depth), qpc__rq_type=QPC_RQ_TYPE_ZERO_LEN,
        qpc__cqn_snd=cqn, qpc__cqn_rcv=cqn, qpc__ts_format=QPC_TS_FORMAT_DEFAULT,
        qpc__dbr_umem_valid=1, qpc__dbr_umem_id=dbr_umem_id, qpc__dbr_addr=dbr_offset)


def rst2init_qp_in(*, qpn: int, port: int, access: int = QP_REMOTE_ACCESS) -> bytes:
    return prm.MODIFY_QP_IN.pack(
        opcode=CMD_RST2INIT_QP, qpn=qpn, qpc__pm_state=QPC_PM_STATE_MIGRATED,
        qpc__primary_address_path__vhca_port_num=port,
        qpc__primary_address_path__pkey_index=0, **qp_access_fields(access))


def init2rtr_qp_in(*, qpn: int, remote_qpn: int, path: LoopbackPath, mtu: int,
                   max_rd_atomic: int, rcv_psn: int = 0) -> bytes:
    """RTR: where the QP sends (itself), how many incoming RDMA READs it
    serves at once (log_rra_max), and the first PSN it expects."""
    return prm.MODIFY_QP_IN.pack(
        opcode=CMD_INIT2RTR_QP, qpn=qpn, qpc__mtu=mtu, qpc__log_msg_max=LOG_MSG_MAX,
        qpc__remote_qpn=remote_qpn, qpc__min_rnr_nak=MIN_RNR_NAK,
        qpc__log_rra_max=floor_log2(max_rd_atomic), qpc__next_rcv_psn=rcv_psn,
        **path.fields())


def rtr2rts_qp_in(*, qpn: int, port: int, max_rd_atomic: int, send_psn: int = 0) -> bytes:
    """RTS: how many RDMA READs it keeps outstanding (log_sra_max; 0 would
    serialize the page faults of a queue), retries and ack timeout."""
    return prm.MODIFY_QP_IN.pack(
        opcode=CMD_RTR2RTS_QP, qpn=qpn, qpc__log_sra_max=floor_log2(max_rd_atomic),
        qpc__retry_count=RETRY_COUNT, qpc__rnr_retry=RNR_RETRY, qpc__next_send_psn=send_psn,
        qpc__log_ack_req_freq=0, qpc__primary_address_path__ack_timeout=ACK_TIMEOUT,
        qpc__primary_address_path__vhca_port_num=port)


class DevxCommandError(RuntimeError):
    """The firmware rejected a DevX command (status and syndrome)."""


def check_out(layout: prm.Layout, out, what: str) -> bytes:
    """The output mailbox, or DevxCommandError with its status/syndrome."""
    out = bytes(out)
    status = layout.get(out, "status")
    if status:
        raise DevxCommandError(f"{what}: firmware status {status:#x}, "
                               f"syndrome {layout.get(out, 'syndrome'):#010x}")
    return out
