"""The rnic backend's host setup, everything of it that needs no NIC: PRM
command layouts (checked against the reserved_at_<offset> anchors of
mlx5_ifc.h), the DevX commands and QP state transitions, access flags, queue
memory layout, the hand-off into the device descriptors, and that this
machine reports 'no RDMA device'. Inputs are fabricated where hardware
would give them; nothing here pretends to be a NIC."""
import os
import sys

import numpy as np
import pytest

from dream.verbs import devx, prm
from dream.verbs import device as rdev
from dream.verbs import pyverbs_shim as shim

# (layout, field, bit offset in mlx5_ifc.h): offsets read off the neighbouring
# reserved_at_<hex> names, or the field's own position in struct *_bits.
ANCHORS = [
    (prm.ADS, "vhca_port_num", 0x128), (prm.ADS, "rmac", 0x130), (prm.ADS, "rlid", 0x30),
    (prm.ADS, "src_addr_index", 0x48), (prm.ADS, "rgid_rip", 0x80),
    (prm.ADS, "udp_sport", 0x110),
    (prm.QPC, "pm_state", 0x13), (prm.QPC, "pd", 0x28), (prm.QPC, "mtu", 0x40),
    (prm.QPC, "log_sq_size", 0x51), (prm.QPC, "rlky", 0x5b), (prm.QPC, "uar_page", 0x68),
    (prm.QPC, "user_index", 0x88), (prm.QPC, "remote_qpn", 0xa8),
    (prm.QPC, "primary_address_path", 0xc0), (prm.QPC, "log_ack_req_freq", 0x380),
    (prm.QPC, "log_sra_max", 0x388), (prm.QPC, "retry_count", 0x38d),
    (prm.QPC, "next_send_psn", 0x3c8), (prm.QPC, "cqn_snd", 0x3e8),
    (prm.QPC, "log_rra_max", 0x488), (prm.QPC, "rre", 0x490), (prm.QPC, "rwe", 0x491),
    (prm.QPC, "min_rnr_nak", 0x4a3), (prm.QPC, "next_rcv_psn", 0x4a8),
    (prm.QPC, "cqn_rcv", 0x4e8), (prm.QPC, "dbr_addr", 0x500), (prm.QPC, "rq_type", 0x565),
    (prm.QPC, "cs_req", 0x630), (prm.QPC, "dbr_umem_valid", 0x683),
    (prm.QPC, "dbr_umem_id", 0x720),
    (prm.CQC, "dbr_umem_valid", 0x6), (prm.CQC, "cqe_sz", 0x8), (prm.CQC, "oi", 0xe),
    (prm.CQC, "dbr_umem_id", 0x20), (prm.CQC, "log_cq_size", 0x63),
    (prm.CQC, "uar_page", 0x68), (prm.CQC, "c_eqn_or_apu_element", 0xa0),
    (prm.CQC, "log_page_size", 0xc3), (prm.CQC, "consumer_counter", 0x148),
    (prm.CQC, "dbr_addr", 0x1c0),
    (prm.CREATE_CQ_IN, "cq_context", 0x80), (prm.CREATE_CQ_IN, "cq_umem_offset", 0x280),
    (prm.CREATE_CQ_IN, "cq_umem_id", 0x2c0), (prm.CREATE_CQ_IN, "cq_umem_valid", 0x2e0),
    (prm.CREATE_QP_IN, "qpc", 0xc0), (prm.CREATE_QP_IN, "wq_umem_offset", 0x800),
    (prm.CREATE_QP_IN, "wq_umem_id", 0x840), (prm.CREATE_QP_IN, "wq_umem_valid", 0x860),
    (prm.MODIFY_QP_IN, "qpn", 0x48), (prm.MODIFY_QP_IN, "opt_param_mask", 0x80),
    (prm.MODIFY_QP_IN, "qpc", 0xc0),
    (prm.MKC, "lr", 0x15), (prm.MKC, "access_mode_1_0", 0x16), (prm.MKC, "qpn", 0x20),
    (prm.MKC, "pd", 0x68), (prm.MKC, "start_addr", 0x80), (prm.MKC, "len", 0xc0),
    (prm.MKC, "translations_octword_size", 0x1a0), (prm.MKC, "log_page_size", 0x1db),
    (prm.CREATE_MKEY_IN, "mkey_umem_valid", 0x61),
    (prm.CREATE_MKEY_IN, "memory_key_mkey_entry", 0x80),
    (prm.CREATE_MKEY_IN, "mkey_umem_id", 0x320), (prm.CREATE_MKEY_IN, "mkey_umem_offset", 0x340),
    (prm.CREATE_CQ_OUT, "cqn", 0x48), (prm.CREATE_QP_OUT, "qpn", 0x48),
    (prm.CREATE_MKEY_OUT, "mkey_index", 0x48), (prm.MODIFY_QP_OUT, "syndrome", 0x20),
]
SIZES = [(prm.ADS, 0x160), (prm.QPC, 0x740), (prm.CQC, 0x200), (prm.MKC, 0x200),
         (prm.CREATE_CQ_IN, 0x880), (prm.CREATE_QP_IN, 0x880), (prm.MODIFY_QP_IN, 0x880),
         (prm.CREATE_MKEY_IN, 0x880), (prm.CREATE_CQ_OUT, 0x80), (prm.CREATE_QP_OUT, 0x80),
         (prm.MODIFY_QP_OUT, 0x80), (prm.CREATE_MKEY_OUT, 0x80)]


@pytest.mark.parametrize("layout,field,bit", ANCHORS,
                         ids=[f"{a[0].name}.{a[1]}" for a in ANCHORS])
def test_prm_offsets_match_mlx5_ifc(layout, field, bit):
    assert layout.offset(field) == bit


@pytest.mark.parametrize("layout,bits", SIZES, ids=[s[0].name for s in SIZES])
def test_prm_sizes_match_mlx5_ifc(layout, bits):
    assert layout.bits == bits


def test_pack_is_big_endian_msb_first():
    b = prm.CREATE_QP_IN.pack(opcode=0x500, qpc__log_sq_size=6, qpc__dbr_addr=0x1234)
    assert b[:2] == b"\x05\x00"
    # qpc at byte 24; log_sq_size is bits 0x51..0x54 of qpc: byte 24 + 10, bits 6..3
    assert b[24 + 10] == 6 << 3
    assert b[24 + 0x500 // 8: 24 + 0x500 // 8 + 8] == (0x1234).to_bytes(8, "big")
    assert prm.CREATE_QP_IN.get(b, "qpc.log_sq_size") == 6


def test_pack_rejects_what_does_not_fit():
    with pytest.raises(ValueError):
        prm.QPC.pack(log_sq_size=16)
    with pytest.raises(ValueError):
        prm.ADS.pack(rmac=b"\x00" * 5)
    with pytest.raises(KeyError):
        prm.QPC.pack(no_such_field=1)


def test_create_cq():
    b = devx.create_cq_in(depth=64, uar_page=0x21, eqn=7, cq_umem_id=0x11, dbr_umem_id=0x12,
                          dbr_offset=0x18)
    g = lambda f: prm.CREATE_CQ_IN.get(b, f)  # noqa: E731
    assert len(b) == prm.CREATE_CQ_IN.nbytes
    assert g("opcode") == devx.CMD_CREATE_CQ == 0x400
    assert (g("cq_umem_valid"), g("cq_umem_id"), g("cq_umem_offset")) == (1, 0x11, 0)
    assert g("cq_context.log_cq_size") == 6
    assert g("cq_context.cqe_sz") == 0            # 64-byte CQEs
    assert g("cq_context.oi") == 1                # the device does not update the CQ DBR
    assert g("cq_context.cc") == 0
    assert g("cq_context.uar_page") == 0x21
    assert g("cq_context.c_eqn_or_apu_element") == 7
    assert (g("cq_context.dbr_umem_valid"), g("cq_context.dbr_umem_id")) == (1, 0x12)
    assert b[72:80] == (0x18).to_bytes(8, "big")  # cqc.dbr_addr, as MLX5_SET64
    with pytest.raises(ValueError):
        devx.create_cq_in(depth=48, uar_page=1, eqn=0, cq_umem_id=1, dbr_umem_id=1,
                          dbr_offset=0)
    with pytest.raises(ValueError):
        devx.create_cq_in(depth=64, uar_page=1, eqn=0, cq_umem_id=1, dbr_umem_id=1,
                          dbr_offset=4)


def test_create_qp():
    b = devx.create_qp_in(depth=128, pdn=0x33, uar_page=0x21, cqn=0x401, wq_umem_id=0x13,
                          dbr_umem_id=0x12, dbr_offset=0x20, user_index=5)
    g = lambda f: prm.CREATE_QP_IN.get(b, "qpc." + f)  # noqa: E731
    assert prm.CREATE_QP_IN.get(b, "opcode") == 0x500
    assert prm.CREATE_QP_IN.get(b, "wq_umem_valid") == 1
    assert prm.CREATE_QP_IN.get(b, "wq_umem_id") == 0x13
    assert g("st") == 0x0                          # MLX5_QPC_ST_RC
    assert g("pm_state") == 0x3                    # MLX5_QPC_PM_STATE_MIGRATED
    assert g("pd") == 0x33 and g("uar_page") == 0x21 and g("user_index") == 5
    assert g("log_sq_size") == 7                   # 128 WQE basic blocks
    assert g("rq_type") == 0x3 and g("log_rq_size") == 0   # MLX5_QPC_RQ_TYPE_ZERO_SIZE_RQ
    assert g("no_sq") == 0
    assert g("cqn_snd") == g("cqn_rcv") == 0x401
    assert (g("dbr_umem_valid"), g("dbr_umem_id"), g("dbr_addr")) == (1, 0x12, 0x20)
    assert g("state") == 0                          # created in RST


PATH = devx.LoopbackPath(port=1)


def transitions(path=PATH, mtu=devx.MTU_4096, rd=16, qpn=0xABCDE):
    """The three commands that take a fresh QP to RTS connected to itself
    (as RnicDevice._to_rts sends them)."""
    return {
        "RST2INIT": devx.rst2init_qp_in(qpn=qpn, port=path.port),
        "INIT2RTR": devx.init2rtr_qp_in(qpn=qpn, remote_qpn=qpn, path=path, mtu=mtu,
                                        max_rd_atomic=rd),
        "RTR2RTS": devx.rtr2rts_qp_in(qpn=qpn, port=path.port, max_rd_atomic=rd),
    }


def q(cmd, field):
    return prm.MODIFY_QP_IN.get(cmd, field)


def test_transitions_opcodes():
    t = transitions()
    assert [q(t[n], "opcode") for n in ("RST2INIT", "INIT2RTR", "RTR2RTS")] == [0x502, 0x503,
                                                                                 0x504]
    assert all(q(c, "qpn") == 0xABCDE for c in t.values())
    assert all(len(c) == prm.MODIFY_QP_IN.nbytes for c in t.values())
    # the state is the command's to change: no transition writes qpc.state
    assert all(q(c, "qpc.state") == 0 for c in t.values())


def test_rst2init():
    c = transitions()["RST2INIT"]
    assert (q(c, "qpc.rre"), q(c, "qpc.rwe"), q(c, "qpc.rae")) == (1, 1, 0)
    assert q(c, "qpc.pm_state") == 0x3
    assert q(c, "qpc.primary_address_path.vhca_port_num") == 1


def test_init2rtr_connects_the_qp_to_itself():
    c = transitions(rd=16)["INIT2RTR"]
    assert q(c, "qpc.remote_qpn") == 0xABCDE
    assert q(c, "qpc.primary_address_path.fl") == 1
    assert q(c, "qpc.primary_address_path.vhca_port_num") == 1
    assert q(c, "qpc.mtu") == 5                        # MLX5_QPC_MTU_4K_BYTES
    assert q(c, "qpc.log_msg_max") == devx.LOG_MSG_MAX
    assert (1 << q(c, "qpc.log_msg_max")) >= 16 << 20   # the largest page fits one message
    assert q(c, "qpc.log_rra_max") == 4


def test_rtr2rts():
    t = transitions(rd=12)
    c = t["RTR2RTS"]
    assert q(c, "qpc.log_sra_max") == 3              # floor(log2(12)): never above the device's
    assert q(c, "qpc.retry_count") == 7 and q(c, "qpc.rnr_retry") == 7
    assert q(c, "qpc.primary_address_path.ack_timeout") == devx.ACK_TIMEOUT
    # the QP's own receive side expects the PSNs its send side uses
    assert q(c, "qpc.next_send_psn") == q(t["INIT2RTR"], "qpc.next_rcv_psn")


def test_addressed_loopback_paths():
    ib = transitions(devx.LoopbackPath(port=2, force=False, lid=0x17))["INIT2RTR"]
    assert q(ib, "qpc.primary_address_path.fl") == 0
    assert q(ib, "qpc.primary_address_path.rlid") == 0x17
    assert q(ib, "qpc.primary_address_path.vhca_port_num") == 2
    gid, mac = bytes(range(16)), bytes.fromhex("0c42a1b2c3d4")
    roce = transitions(devx.LoopbackPath(port=1, force=False, gid=gid, mac=mac,
                                         gid_index=3))["INIT2RTR"]
    p = "qpc.primary_address_path."
    assert q(roce, p + "rgid_rip").to_bytes(16, "big") == gid
    assert q(roce, p + "rmac").to_bytes(6, "big") == mac
    assert q(roce, p + "src_addr_index") == 3
    assert q(roce, p + "hop_limit") == devx.ROCE_HOP_LIMIT
    assert q(roce, p + "udp_sport") >= 0xc000
    with pytest.raises(ValueError):
        devx.LoopbackPath(port=1, force=False, gid=gid, mac=b"\x00").fields()


def test_access_flags():
    assert devx.BACKING_ACCESS == (devx.IBV_ACCESS_LOCAL_WRITE | devx.IBV_ACCESS_REMOTE_READ
                                   | devx.IBV_ACCESS_REMOTE_WRITE)
    assert devx.FRAMES_ACCESS == devx.IBV_ACCESS_LOCAL_WRITE
    assert devx.QUEUE_ACCESS == devx.IBV_ACCESS_LOCAL_WRITE
    assert devx.qp_access_fields(devx.IBV_ACCESS_REMOTE_READ) == {
        "qpc__rre": 1, "qpc__rwe": 0, "qpc__rae": 0}
    assert devx.qp_access_fields(devx.IBV_ACCESS_REMOTE_ATOMIC)["qpc__rae"] == 1
    # the soft RNIC checks regions with the same flag values
    from dream.verbs import mlx5
    assert (mlx5.ACCESS_LOCAL_WRITE, mlx5.ACCESS_REMOTE_WRITE, mlx5.ACCESS_REMOTE_READ) == (
        devx.IBV_ACCESS_LOCAL_WRITE, devx.IBV_ACCESS_REMOTE_WRITE, devx.IBV_ACCESS_REMOTE_READ)


def test_access_flags_match_pyverbs():
    try:
        shim.import_pyverbs()
    except ImportError as e:
        pytest.skip(f"pyverbs not importable: {e}")
    import pyverbs.enums as e
    assert devx.IBV_ACCESS_LOCAL_WRITE == e.IBV_ACCESS_LOCAL_WRITE
    assert devx.IBV_ACCESS_REMOTE_WRITE == e.IBV_ACCESS_REMOTE_WRITE
    assert devx.IBV_ACCESS_REMOTE_READ == e.IBV_ACCESS_REMOTE_READ
    assert devx.IBV_ACCESS_REMOTE_ATOMIC == e.IBV_ACCESS_REMOTE_ATOMIC
    assert devx.MTU_4096 == e.IBV_MTU_4096
    assert rdev.IBV_LINK_LAYER_ETHERNET == e.IBV_LINK_LAYER_ETHERNET


def test_frame_ring_mkey():
    b = devx.create_mkey_in(pdn=0x33, start_addr=0x7f00_0000_0000, length=1 << 30,
                            umem_id=0x44, access=devx.FRAMES_ACCESS)
    g = lambda f: prm.CREATE_MKEY_IN.get(b, f)  # noqa: E731
    m = "memory_key_mkey_entry."
    assert g("opcode") == 0x200
    assert (g("mkey_umem_valid"), g("mkey_umem_id"), g("mkey_umem_offset")) == (1, 0x44, 0)
    assert g(m + "access_mode_1_0") == 0x1              # MLX5_MKC_ACCESS_MODE_MTT
    assert (g(m + "lr"), g(m + "lw"), g(m + "rr"), g(m + "rw"), g(m + "a")) == (1, 1, 0, 0, 0)
    assert g(m + "start_addr") == 0x7f00_0000_0000   # WQEs name frames by GPU address
    assert g(m + "len") == 1 << 30
    assert g(m + "pd") == 0x33 and g(m + "qpn") == 0xFFFFFF
    assert devx.mkey_to_lkey(0x1234) == 0x123400


def test_check_out():
    ok = prm.CREATE_QP_OUT.pack(qpn=0x99)
    assert prm.CREATE_QP_OUT.get(devx.check_out(prm.CREATE_QP_OUT, ok, "CREATE_QP"), "qpn") == 0x99
    bad = prm.MODIFY_QP_OUT.pack(status=0x3, syndrome=0x1234abcd)
    with pytest.raises(devx.DevxCommandError, match=r"INIT2RTR.*status 0x3.*0x1234abcd"):
        devx.check_out(prm.MODIFY_QP_OUT, bad, "INIT2RTR")


@pytest.mark.parametrize("queues,depth", [(1, 1), (84, 64), (3, 1024)])
def test_queue_layout(queues, depth):
    lay = rdev.QueueLayout(queues, depth)
    spans = []
    for i in range(queues):
        for start in (lay.sq(i), lay.cq(i)):
            assert start % rdev.HOST_PAGE == 0               # each ring is its own umem
            spans.append((start, start + depth * 64))
        assert lay.qp_dbr(i) % 8 == 0 and lay.cq_dbr(i) % 8 == 0
        assert lay.dbr <= lay.qp_dbr(i) < lay.cq_dbr(i) < lay.dbr + lay.dbr_bytes
    spans.append((lay.dbr, lay.dbr + queues * rdev.DBR_STRIDE))
    spans.sort()
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))
    assert spans[-1][1] <= lay.total and lay.total % rdev.HOST_PAGE == 0


def test_page_span():
    assert rdev.page_span(0x10000, 0x3000) == (0x10000, 0x3000)
    assert rdev.page_span(0x10200, 0x1000) == (0x10000, 0x2000)


def test_initial_cq_matches_mlx5_h():
    ring = np.frombuffer(rdev.initial_cq(8), dtype=np.uint8).reshape(8, 64)
    assert (ring[:, 63] == 0xF0).all()               # op_own: opcode invalid (0xF), owner 0
    assert (ring[:, :63] == 0).all()


def test_roce_gid_choice():
    assert rdev.pick_gid_index({0: "IB/RoCE v1", 1: "RoCE v2", 3: "RoCE v2"}) == 1
    from dream import BackendUnavailableError
    with pytest.raises(BackendUnavailableError):
        rdev.pick_gid_index({0: "IB/RoCE v1"})
    assert rdev.gid_bytes("fe80:0000:0000:0000:0e42:a1ff:feb2:c3d4")[:2] == b"\xfe\x80"


# -- availability ------------------------------------------------------------

def _has_rdma() -> bool:
    return bool(shim.mlx5_devices(shim.infiniband_devices()))


def test_this_machine_reports_no_rdma_device():
    if _has_rdma() and not shim.rdma_unavailable_reason():
        pytest.skip("this machine has an mlx5 device and pyverbs")
    why = shim.rdma_unavailable_reason()
    assert why.startswith("no RDMA device: ")
    if not shim.infiniband_devices():
        assert "/sys/class/infiniband" in why


def test_reason_names_a_non_mlx5_device(tmp_path, monkeypatch):
    dev = tmp_path / "infiniband" / "rxe0" / "device"
    dev.mkdir(parents=True)
    (tmp_path / "drivers" / "rdma_rxe").mkdir(parents=True)
    os.symlink(tmp_path / "drivers" / "rdma_rxe", dev / "driver")
    monkeypatch.setattr(shim, "SYS_INFINIBAND", str(tmp_path / "infiniband"))
    assert shim.infiniband_devices() == {"rxe0": "rdma_rxe"}
    why = shim.rdma_unavailable_reason()
    assert why.startswith("no RDMA device: ") and "no mlx5 (ConnectX) device" in why
    assert "rxe0 (rdma_rxe)" in why


def test_reason_when_pyverbs_is_missing(tmp_path, monkeypatch):
    for name in [n for n in sys.modules if n == "pyverbs" or n.startswith("pyverbs.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if "dist-packages" not in p])
    monkeypatch.setattr(shim, "SYSTEM_DIST_PACKAGES", str(tmp_path))
    with pytest.raises(ImportError, match="python3-pyverbs"):
        shim.import_pyverbs()
    assert "python3-pyverbs" in shim.rdma_unavailable_reason()


def test_pyverbs_loads_without_a_device():
    try:
        shim.import_pyverbs()
    except ImportError as e:
        pytest.skip(f"pyverbs not importable: {e}")
    import pyverbs.device as d
    from pyverbs.pyverbs_error import PyverbsRDMAError
    if _has_rdma():
        pytest.skip("this machine has an RDMA device")
    with pytest.raises(PyverbsRDMAError, match="Failed to get devices list"):
        d.get_device_list()


# -- hand-off into the device descriptors --------------------------------------

def fake_handoffs(n=3):
    """Addresses as a set-up ConnectX would give them (made up: no NIC here)."""
    return [rdev.QueueHandoff(qpn=0x1a0 + i, cqn=0x400 + i, depth=64,
                              sq=0x7f10_0000_0000 + 0x2000 * i,
                              cq=0x7f10_0000_1000 + 0x2000 * i,
                              qp_dbr=0x7f10_0010_0000 + 16 * i,
                              uar_db=0x7f20_0000_0800 + 0x1000 * i, lkey=0x4500)
            for i in range(n)]


def test_queue_records_follow_mlx5_h():
    import struct
    from dream.verbs import mlx5
    hs = fake_handoffs()
    seq = [0x7f30_0000_0000 + 256 * i for i in range(3)]
    recs = rdev.queue_records(hs, seq)
    assert recs.dtype == mlx5.RNIC_QUEUE and recs.itemsize == 64   # sizeof(dream_rnic_queue)
    raw = recs.tobytes()
    for i, h in enumerate(hs):
        base = 64 * i
        # offsets from mlx5.h / queue.h (DREAM_CHECK_OFFSET there)
        ticket, rung, lock, depth, seqp = struct.unpack_from("<IIIIQ", raw, base)
        assert (ticket, rung, lock, depth, seqp) == (0, 0, 0, 64, seq[i])
        assert struct.unpack_from("<II", raw, base + 24) == (h.qpn, h.lkey)
        assert struct.unpack_from("<QQQQ", raw, base + 32) == (h.sq, h.cq, h.qp_dbr, h.uar_db)
    with pytest.raises(ValueError):
        rdev.queue_records(hs, seq[:2])


# -- the backend ----------------------------------------------------------------

def test_rnic_backend_is_registered():
    from dream.runtime.backends import all_backends
    from dream.verbs.rnic_backend import RnicBackend
    assert all_backends()["rnic"] is RnicBackend
    assert RnicBackend.name == "rnic" and RnicBackend.define == "DREAM_BACKEND_RNIC"


def test_rnic_backend_unavailable_here():
    import dream
    from dream.verbs.rnic_backend import RnicBackend
    ok, why = RnicBackend.availability()
    if ok:
        pytest.skip("this machine has an RDMA device, pyverbs and a GPU")
    if not shim.rdma_unavailable_reason():
        pytest.skip(f"RDMA is here; unavailable for another reason: {why}")
    assert why.startswith("no RDMA device: ")
    # fails before touching the runtime or any hardware
    with pytest.raises(dream.BackendUnavailableError, match="no RDMA device") as e:
        RnicBackend(None)
    assert why in str(e.value)


def test_dream_info_prints_the_reason(capsys):
    from dream.cli import main
    from dream.verbs.rnic_backend import RnicBackend
    ok, why = RnicBackend.availability()
    if ok:
        pytest.skip("the rnic backend can run here")
    assert main(["info"]) == 0
    line = [ln for ln in capsys.readouterr().out.splitlines() if ln.strip().startswith("rnic")]
    assert line and "cannot run" in line[0] and why in line[0]
