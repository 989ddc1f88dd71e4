"""mlx5 PRM command layouts for the DevX objects the rnic backend creates
(CQ, RC QP and its state changes), packed big-endian as the firmware reads
them: bit 0 is the most significant bit of byte 0, like MLX5_SET().

Field order and widths follow struct mlx5_ifc_*_bits of mlx5_ifc.h (Linux
include/linux/mlx5/mlx5_ifc.h and rdma-core's copy used by its DevX tests);
unnamed entries are the reserved_at_<bit offset> fields there, and
tests/test_rnic_setup.py checks the computed offsets against those names.
"""
from __future__ import annotations


class Layout:
    """A PRM structure: fields as (name, bits) or (name, Layout); name None
    is a reserved field. Nested fields are addressed as 'outer.inner'."""

    def __init__(self, name: str, fields):
        self.name = name
        self.fields: dict[str, tuple[int, int]] = {}
        bit = 0
        for fname, kind in fields:
            if isinstance(kind, Layout):
                for sub, (off, width) in kind.fields.items():
                    self.fields[f"{fname}.{sub}"] = (bit + off, width)
                self.fields[fname] = (bit, kind.bits)
                bit += kind.bits
            else:
                if fname is not None:
                    self.fields[fname] = (bit, kind)
                bit += kind
        if bit % 32:
            raise ValueError(f"{name}: {bit} bits is not a whole number of dwords")
        self.bits = bit
        self.nbytes = bit // 8

    def offset(self, field: str) -> int:
        """Bit offset of `field` from the start of the structure."""
        return self._field(field)[0]

    def _field(self, field: str) -> tuple[int, int]:
        try:
            return self.fields[field]
        except KeyError:
            raise KeyError(f"{self.name} has no field {field!r}") from None

    def pack(self, **values) -> bytes:
        """The structure with the given fields set (nested: a__b for a.b);
        int values, or bytes for byte-array fields (gids, MACs)."""
        acc = 0
        for key, value in values.items():
            off, width = self._field(key.replace("__", "."))
            if isinstance(value, (bytes, bytearray)):
                if len(value) * 8 != width:
                    raise ValueError(f"{self.name}.{key}: {len(value)} bytes for a "
                                     f"{width}-bit field")
                value = int.from_bytes(value, "big")
            value = int(value)
            if not 0 <= value < 1 << width:
                raise ValueError(f"{self.name}.{key}={value:#x} does not fit in {width} bits")
            acc |= value << (self.bits - off - width)
        return acc.to_bytes(self.nbytes, "big")

    def get(self, buf, field: str) -> int:
        data = bytes(buf)
        if len(data) < self.nbytes:
            raise ValueError(f"{self.name}: {len(data)} bytes, expected {self.nbytes}")
        off, width = self._field(field)
        whole = int.from_bytes(data[: self.nbytes], "big")
        return (whole >> (self.bits - off - width)) & ((1 << width) - 1)


_R = None  # reserved

ADS = Layout("ads", [
    ("fl", 1), ("free_ar", 1), (_R, 14), ("pkey_index", 16),
    (_R, 8), ("grh", 1), ("mlid", 7), ("rlid", 16),
    ("ack_timeout", 5), (_R, 3), ("src_addr_index", 8), (_R, 4), ("stat_rate", 4),
    ("hop_limit", 8),
    (_R, 4), ("tclass", 8), ("flow_label", 20),
    ("rgid_rip", 128),
    (_R, 4), ("f_dscp", 1), ("f_ecn", 1), (_R, 1), ("f_eth_prio", 1), ("ecn", 2),
    ("dscp", 6), ("udp_sport", 16),
    (_R, 1), ("eth_prio", 3), ("sl", 4), ("vhca_port_num", 8), ("rmac", 48),
])

QPC = Layout("qpc", [
    ("state", 4), ("lag_tx_port_affinity", 4), ("st", 8), (_R, 3), ("pm_state", 2), (_R, 1),
    ("req_e2e_credit_mode", 2), ("offload_type", 4), ("end_padding_mode", 2), (_R, 2),
    ("wq_signature", 1), ("block_lb_mc", 1), ("atomic_like_write_en", 1),
    ("latency_sensitive", 1), (_R, 1), ("drain_sigerr", 1), (_R, 2), ("pd", 24),
    ("mtu", 3), ("log_msg_max", 5), (_R, 1), ("log_rq_size", 4), ("log_rq_stride", 3),
    ("no_sq", 1), ("log_sq_size", 4), (_R, 1), ("retry_mode", 2), ("ts_format", 2),
    ("data_in_order", 1), ("rlky", 1), ("ulp_stateless_offload_mode", 4),
    ("counter_set_id", 8), ("uar_page", 24),
    (_R, 8), ("user_index", 24),
    (_R, 3), ("log_page_size", 5), ("remote_qpn", 24),
    ("primary_address_path", ADS),
    ("secondary_address_path", ADS),
    ("log_ack_req_freq", 4), (_R, 4), ("log_sra_max", 3), (_R, 2), ("retry_count", 3),
    ("rnr_retry", 3), (_R, 1), ("fre", 1), ("cur_rnr_retry", 3), ("cur_retry_count", 3),
    (_R, 5),
    (_R, 32),
    (_R, 8), ("next_send_psn", 24),
    (_R, 8), ("cqn_snd", 24),
    (_R, 8), ("deth_sqpn", 24),
    (_R, 32),
    (_R, 8), ("last_acked_psn", 24),
    (_R, 8), ("ssn", 24),
    (_R, 8), ("log_rra_max", 3), (_R, 1), ("atomic_mode", 4), ("rre", 1), ("rwe", 1),
    ("rae", 1), (_R, 1), ("page_offset", 6), (_R, 3), ("cd_slave_receive", 1),
    ("cd_slave_send", 1), ("cd_master", 1),
    (_R, 3), ("min_rnr_nak", 5), ("next_rcv_psn", 24),
    (_R, 8), ("xrcd", 24),
    (_R, 8), ("cqn_rcv", 24),
    ("dbr_addr", 64),
    ("q_key", 32),
    (_R, 5), ("rq_type", 3), ("srqn_rmpn_xrqn", 24),
    (_R, 8), ("rmsn", 24),
    ("hw_sq_wqebb_counter", 16), ("sw_sq_wqebb_counter", 16),
    ("hw_rq_counter", 32),
    ("sw_rq_counter", 32),
    (_R, 32),
    (_R, 15), ("cgs", 1), ("cs_req", 8), ("cs_res", 8),
    ("dc_access_key", 64),
    (_R, 3), ("dbr_umem_valid", 1), (_R, 0x9c),
    ("dbr_umem_id", 32),
])

CQC = Layout("cqc", [
    ("status", 4), ("as_notify", 1), ("initiator_src_dct", 1), ("dbr_umem_valid", 1), (_R, 1),
    ("cqe_sz", 3), ("cc", 1), (_R, 1), ("scqe_break_moderation_en", 1), ("oi", 1),
    ("cq_period_mode", 2), ("cqe_comp_en", 1), ("mini_cqe_res_format", 2), ("st", 4), (_R, 8),
    ("dbr_umem_id", 32),
    (_R, 20), ("page_offset", 6), (_R, 6),
    (_R, 3), ("log_cq_size", 5), ("uar_page", 24),
    (_R, 4), ("cq_period", 12), ("cq_max_count", 16),
    ("c_eqn_or_apu_element", 32),  # c_eqn[0x8] after reserved_at_a0[0x18] before the APU change
    (_R, 3), ("log_page_size", 5), (_R, 24),
    (_R, 32),
    (_R, 8), ("last_notified_index", 24),
    (_R, 8), ("last_solicit_index", 24),
    (_R, 8), ("consumer_counter", 24),
    (_R, 8), ("producer_counter", 24),
    (_R, 64),
    ("dbr_addr", 64),
])

_CMD_HDR = [("opcode", 16), ("uid", 16), (_R, 16), ("op_mod", 16)]
_OUT_HDR = [("status", 8), (_R, 24), ("syndrome", 32)]

CREATE_CQ_IN = Layout("create_cq_in", _CMD_HDR + [
    (_R, 8), ("cqn", 24), (_R, 32),
    ("cq_context", CQC),
    ("cq_umem_offset", 64),
    ("cq_umem_id", 32),
    ("cq_umem_valid", 1), (_R, 0x59f),
])
CREATE_CQ_OUT = Layout("create_cq_out", _OUT_HDR + [(_R, 8), ("cqn", 24), (_R, 32)])

CREATE_QP_IN = Layout("create_qp_in", _CMD_HDR + [
    (_R, 8), ("input_qpn", 24), (_R, 32),
    ("opt_param_mask", 32), (_R, 32),
    ("qpc", QPC),
    ("wq_umem_offset", 64),
    ("wq_umem_id", 32),
    ("wq_umem_valid", 1), (_R, 31),
])
CREATE_QP_OUT = Layout("create_qp_out", _OUT_HDR + [(_R, 8), ("qpn", 24), (_R, 32)])

# rst2init_qp_in, init2rtr_qp_in and rtr2rts_qp_in share this layout.
MODIFY_QP_IN = Layout("modify_qp_in", _CMD_HDR + [
    (_R, 8), ("qpn", 24), (_R, 32),
    ("opt_param_mask", 32), ("ece", 32),
    ("qpc", QPC),
    (_R, 0x80),
])
MODIFY_QP_OUT = Layout("modify_qp_out", _OUT_HDR + [(_R, 64)])

MKC = Layout("mkc", [
    (_R, 1), ("free", 1), (_R, 1), ("access_mode_4_2", 3), ("alter_pd_to_vhca_id", 1),
    ("crossed_side_mkey", 1), (_R, 5), ("relaxed_ordering_write", 1), (_R, 1),
    ("small_fence_on_rdma_read_response", 1), ("umr_en", 1), ("a", 1), ("rw", 1), ("rr", 1),
    ("lw", 1), ("lr", 1), ("access_mode_1_0", 2), (_R, 1), ("tunneled_atomic", 1),
    ("ma_translation_mode", 2), (_R, 4),
    ("qpn", 24), ("mkey_7_0", 8),
    (_R, 8), ("pasid", 24),
    ("length64", 1), ("bsf_en", 1), ("sync_umr", 1), (_R, 2), ("expected_sigerr_count", 1),
    (_R, 1), ("en_rinval", 1), ("pd", 24),
    ("start_addr", 64),
    ("len", 64),
    ("bsf_octword_size", 32),
    (_R, 0x60),
    ("crossing_target_vhca_id", 16), (_R, 16),
    ("translations_octword_size", 32),
    (_R, 25), ("relaxed_ordering_read", 1), (_R, 1), ("log_page_size", 5),
    (_R, 32),
])

CREATE_MKEY_IN = Layout("create_mkey_in", _CMD_HDR + [
    (_R, 8), ("input_mkey_index", 24),
    ("pg_access", 1), ("mkey_umem_valid", 1), (_R, 30),
    ("memory_key_mkey_entry", MKC),
    ("e_mtt_pointer", 64),
    ("e_bsf_pointer", 64),
    ("translations_octword_actual_size", 32),
    ("mkey_umem_id", 32),
    ("mkey_umem_offset", 64),
    (_R, 0x500),
])
CREATE_MKEY_OUT = Layout("create_mkey_out", _OUT_HDR + [(_R, 8), ("mkey_index", 24), (_R, 32)])
