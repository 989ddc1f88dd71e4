"""The soft RNIC engine over host memory (no GPU): WQEs built in Python the
way rnic.cuh writes them, doorbells rung through the UAR word, and the data,
CQEs, owner bits and error syndromes checked."""
import time

import numpy as np
import pytest

from dream import _softrnic
from dream.verbs import mlx5

PAGE = 4096
READ, WRITE = mlx5.OPCODE_RDMA_READ, mlx5.OPCODE_RDMA_WRITE
ALL_REMOTE = mlx5.ACCESS_REMOTE_READ | mlx5.ACCESS_REMOTE_WRITE


class HostQp:
    """A QP whose SQ, CQ and UAR word are numpy arrays; posts and rings as
    the GPU leaders do."""

    def __init__(self, eng, depth):
        self.eng, self.depth = eng, depth
        self.sq = np.zeros(depth, dtype=mlx5.RDMA_WQE)
        self.cq_bytes = np.zeros(depth * mlx5.CQE_SIZE, dtype=np.uint8)
        self.cq = self.cq_bytes.view(mlx5.CQE64)
        self.err = self.cq_bytes.view(mlx5.ERR_CQE)
        self.cq["op_own"] = mlx5.CQE_INIT_OP_OWN
        self.uar = np.zeros(8, dtype="<u8")  # one 64-byte line
        self.index, self.qpn = eng.add_qp(self.sq.ctypes.data, self.cq_bytes.ctypes.data, depth,
                                          self.uar.ctypes.data)
        self.pi = 0

    def post(self, opcode, raddr, rkey, laddr, lkey, length=PAGE, **kw):
        kw.setdefault("qpn", self.qpn)
        kw.setdefault("index", self.pi)
        self.sq[self.pi % self.depth] = mlx5.rdma_wqe(opcode=opcode, raddr=raddr, rkey=rkey,
                                                      laddr=laddr, lkey=lkey, length=length,
                                                      **kw)[0]
        self.pi += 1

    def ring(self):
        self.uar[0] = mlx5.doorbell_value(self.sq[(self.pi - 1) % self.depth: ][:1])

    def cqe(self, c):
        """CQE number c, or None while the owner bit says it has not arrived."""
        e = self.cq[c % self.depth]
        op_own = int(e["op_own"])
        if mlx5.cqe_opcode(op_own) == mlx5.CQE_INVALID or \
                mlx5.cqe_owner(op_own) != (c // self.depth) & 1:
            return None
        return e

    def wait_cqe(self, c, timeout=5.0):
        deadline = time.monotonic() + timeout
        while (e := self.cqe(c)) is None:
            assert time.monotonic() < deadline, f"no CQE {c} within {timeout}s"
            time.sleep(1e-4)
        return e


class Setup:
    """An engine with a remote (backing) and a local (frames) region."""

    def __init__(self, pages=8, depth=8, local_access=mlx5.ACCESS_LOCAL_WRITE,
                 remote_access=ALL_REMOTE, **engine_kw):
        self.eng = _softrnic.Engine(gpu=False, **engine_kw)
        rng = np.random.default_rng(0)
        self.remote = rng.integers(0, 256, pages * PAGE, dtype=np.uint8)
        self.local = np.zeros(pages * PAGE, dtype=np.uint8)
        self.rkey = self.eng.register_region(self.remote.ctypes.data, self.remote.nbytes,
                                             remote_access)
        self.lkey = self.eng.register_region(self.local.ctypes.data, self.local.nbytes,
                                             local_access)
        self.qp = HostQp(self.eng, depth)

    def raddr(self, page):
        return self.remote.ctypes.data + page * PAGE

    def laddr(self, page):
        return self.local.ctypes.data + page * PAGE

    def read(self, rpage, lpage, qp=None, **kw):
        (qp or self.qp).post(READ, self.raddr(rpage), self.rkey, self.laddr(lpage), self.lkey, **kw)

    def write(self, lpage, rpage, qp=None, **kw):
        (qp or self.qp).post(WRITE, self.raddr(rpage), self.rkey, self.laddr(lpage), self.lkey, **kw)

    def rpage(self, p):
        return self.remote[p * PAGE:(p + 1) * PAGE]

    def lpage(self, p):
        return self.local[p * PAGE:(p + 1) * PAGE]


def test_read_moves_the_page_and_completes():
    s = Setup()
    s.read(3, 1)
    s.qp.ring()
    assert s.eng.poll() == 1
    assert np.array_equal(s.lpage(1), s.rpage(3))
    assert not s.lpage(0).any() and not s.lpage(2).any()
    e = s.qp.cqe(0)
    assert e is not None
    assert mlx5.cqe_opcode(int(e["op_own"])) == mlx5.CQE_REQ
    assert int(e["wqe_counter"]) == 0
    assert int(e["byte_cnt"]) == PAGE
    assert int(e["sop_drop_qpn"]) == (READ << 24) | s.qp.qpn
    c = s.eng.counters()
    assert (c["doorbells"], c["wqes"], c["reads"], c["bytes_read"], c["cqes"]) == (1, 1, 1, PAGE, 1)
    assert s.qp.cqe(1) is None


def test_write_moves_the_frame_back():
    s = Setup()
    s.local[:] = 7
    before = s.remote.copy()
    s.write(2, 5)
    s.qp.ring()
    assert s.eng.poll() == 1
    assert (s.rpage(5) == 7).all()
    assert np.array_equal(np.delete(s.remote, np.s_[5 * PAGE:6 * PAGE]),
                          np.delete(before, np.s_[5 * PAGE:6 * PAGE]))
    e = s.qp.cqe(0)
    assert int(e["sop_drop_qpn"]) >> 24 == WRITE
    c = s.eng.counters()
    assert (c["writes"], c["bytes_written"]) == (1, PAGE)


def test_one_doorbell_serves_a_run_of_wqes():
    s = Setup(depth=8)
    for k in range(6):
        s.read(k, k)
    s.qp.ring()
    assert s.eng.poll() == 6
    assert np.array_equal(s.local[:6 * PAGE], s.remote[:6 * PAGE])
    assert [int(s.qp.cqe(k)["wqe_counter"]) for k in range(6)] == list(range(6))
    c = s.eng.counters()
    assert (c["doorbells"], c["wqes"]) == (1, 6)
    # the same doorbell value again is no new doorbell; nothing to do
    assert s.eng.poll() == 0
    assert s.eng.counters()["doorbells"] == 1


def test_unrung_wqes_wait_for_their_doorbell():
    s = Setup()
    s.read(0, 0)
    s.qp.ring()
    s.read(1, 1)  # written but not announced
    assert s.eng.poll() == 1
    assert not s.lpage(1).any() and s.qp.cqe(1) is None
    s.qp.ring()
    assert s.eng.poll() == 1
    assert np.array_equal(s.lpage(1), s.rpage(1))


@pytest.mark.parametrize("depth", [1, 4])
def test_sq_and_cq_wrap_with_owner_bit_flips(depth):
    s = Setup(pages=4, depth=depth)
    n = 0
    for rnd in range(5):
        for k in range(depth):
            s.read((n + k) % 4, k % 4)
        s.qp.ring()
        assert s.eng.poll() == depth
        for k in range(depth):
            c = n + k
            e = s.qp.cqe(c)
            assert e is not None, (rnd, k)
            assert mlx5.cqe_owner(int(e["op_own"])) == (c // depth) & 1
            assert int(e["wqe_counter"]) == c & 0xFFFF
        # the previous pass's entries do not read as new ones
        assert s.qp.cqe(n + depth) is None
        n += depth
    assert s.eng.qp_info(s.qp.index)["consumer"] == 5 * depth


def test_wqe_index_wraps_at_16_bits():
    # 65536 + a few WQEs of 64 bytes through a 32768-deep queue
    depth = 32768
    eng = _softrnic.Engine(gpu=False)
    remote = np.arange(64, dtype=np.uint8)
    local = np.zeros(64 * depth, dtype=np.uint8)
    rkey = eng.register_region(remote.ctypes.data, remote.nbytes, ALL_REMOTE)
    lkey = eng.register_region(local.ctypes.data, local.nbytes, mlx5.ACCESS_LOCAL_WRITE)
    qp = HostQp(eng, depth)
    slots = np.arange(depth)
    wqes = np.zeros(depth, dtype=mlx5.RDMA_WQE)
    wqes["ctrl"]["qpn_ds"] = (qp.qpn << 8) | mlx5.RDMA_DS
    wqes["ctrl"]["fm_ce_se"] = mlx5.WQE_CTRL_CQ_UPDATE
    wqes["raddr"]["raddr"] = remote.ctypes.data
    wqes["raddr"]["rkey"] = rkey
    wqes["data"]["byte_count"] = 64
    wqes["data"]["lkey"] = lkey
    wqes["data"]["addr"] = local.ctypes.data + 64 * slots
    done = 0
    for count in (depth, depth, 5):
        idx = (done + slots[:count]) & 0xFFFF
        w = wqes[:count].copy()
        w["ctrl"]["opmod_idx_opcode"] = (idx << 8) | READ
        qp.sq[(done + slots[:count]) % depth] = w
        qp.pi = done + count
        local[:] = 0
        qp.ring()
        assert eng.poll() == count
        assert (local[:64 * count].reshape(count, 64) == remote).all()
        last = qp.cqe(done + count - 1)
        assert last is not None and int(last["wqe_counter"]) == (done + count - 1) & 0xFFFF
        done += count
    assert done > 1 << 16
    assert eng.counters()["errors"] == 0


def test_wqe_without_completion_flag_makes_no_cqe():
    s = Setup()
    s.read(0, 0, flags=0)
    s.read(1, 1)
    s.qp.ring()
    assert s.eng.poll() == 2
    assert np.array_equal(s.local[:2 * PAGE], s.remote[:2 * PAGE])
    e = s.qp.cqe(0)  # CQE 0 completes WQE 1
    assert int(e["wqe_counter"]) == 1
    assert s.qp.cqe(1) is None


LW, RR, RW = mlx5.ACCESS_LOCAL_WRITE, mlx5.ACCESS_REMOTE_READ, mlx5.ACCESS_REMOTE_WRITE
ERROR_CASES = {
    # name: (how to post it, syndrome, vendor syndrome, Setup kwargs)
    "bad opcode": (lambda s: s.qp.post(0x0A, s.raddr(0), s.rkey, s.laddr(0), s.lkey),
                   "LOCAL_QP_OP_ERR", "OPCODE", {}),
    "two segments": (lambda s: s.read(0, 0, ds=2), "LOCAL_QP_OP_ERR", "DS", {}),
    "other qpn": (lambda s: s.read(0, 0, qpn=s.qp.qpn + 1), "LOCAL_QP_OP_ERR", "QPN", {}),
    "wrong index": (lambda s: s.read(0, 0, index=s.qp.pi + 3), "LOCAL_QP_OP_ERR",
                    "WQE_INDEX", {}),
    "inline data": (lambda s: s.read(0, 0, length=mlx5.INLINE_SEG | 16), "LOCAL_QP_OP_ERR",
                    "INLINE", {}),
    "too long": (lambda s: s.read(0, 0, length=2 * PAGE), "LOCAL_LENGTH_ERR", "LENGTH",
                 {"max_message": PAGE}),
    "zero length is 2 GiB": (lambda s: s.read(0, 0, length=0), "LOCAL_LENGTH_ERR", "LENGTH", {}),
    "unknown lkey": (lambda s: s.qp.post(READ, s.raddr(0), s.rkey, s.laddr(0), s.lkey ^ 0x100),
                     "LOCAL_PROT_ERR", "KEY", {}),
    "local out of region": (lambda s: s.read(0, 7, length=PAGE + 1), "LOCAL_PROT_ERR",
                            "BOUNDS", {}),
    "local below region": (lambda s: s.qp.post(READ, s.raddr(0), s.rkey, s.laddr(0) - 64,
                                               s.lkey), "LOCAL_PROT_ERR", "BOUNDS", {}),
    "read into read-only frames": (lambda s: s.read(0, 0), "LOCAL_PROT_ERR", "ACCESS",
                                   {"local_access": 0}),  # a write from them is fine
    "unknown rkey": (lambda s: s.qp.post(READ, s.raddr(0), 0xDEAD5D, s.laddr(0), s.lkey),
                     "REMOTE_ACCESS_ERR", "KEY", {}),
    "lkey as rkey": (lambda s: s.qp.post(READ, s.raddr(0), s.lkey, s.laddr(0), s.lkey),
                     "REMOTE_ACCESS_ERR", "BOUNDS", {}),
    "remote out of region": (lambda s: s.read(8, 0), "REMOTE_ACCESS_ERR", "BOUNDS", {}),
    "read without remote read": (lambda s: s.read(0, 0), "REMOTE_ACCESS_ERR", "ACCESS",
                                 {"remote_access": RW}),
    "write without remote write": (lambda s: s.write(0, 0), "REMOTE_ACCESS_ERR", "ACCESS",
                                   {"remote_access": RR}),
}


@pytest.mark.parametrize("case", sorted(ERROR_CASES))
def test_error_cqe_syndromes(case):
    post, synd, vendor, kw = ERROR_CASES[case]
    s = Setup(**kw)
    s.local[:] = 9
    local0, remote0 = s.local.copy(), s.remote.copy()
    # WQE 0 is fine (a write where reads are refused), WQE 1 is the bad one,
    # WQE 2 comes after it: flushed
    if case in ("read into read-only frames", "read without remote read"):
        s.write(1, 1)
        remote0[PAGE:2 * PAGE] = 9
    else:
        s.read(1, 1)
        local0[PAGE:2 * PAGE] = s.rpage(1)
    post(s)
    s.read(2, 2)
    s.qp.ring()
    assert s.eng.poll() == 3
    assert int(s.qp.cqe(0)["op_own"]) >> 4 == mlx5.CQE_REQ
    e = s.qp.err[1]
    assert s.qp.cqe(1) is not None
    assert mlx5.cqe_opcode(int(e["op_own"])) == mlx5.CQE_REQ_ERR
    assert int(e["syndrome"]) == mlx5.SYND[synd], mlx5.SYNDROMES.get(int(e["syndrome"]))
    assert int(e["vendor_err_synd"]) == mlx5.VS[vendor]
    assert int(e["wqe_counter"]) == 1
    assert int(e["s_wqe_opcode_qpn"]) & 0xFFFFFF == s.qp.qpn
    f = s.qp.err[2]
    assert mlx5.cqe_opcode(int(f["op_own"])) == mlx5.CQE_REQ_ERR
    assert int(f["syndrome"]) == mlx5.SYND["WR_FLUSH_ERR"]
    assert int(f["wqe_counter"]) == 2
    # the failed and the flushed WQEs moved nothing
    assert np.array_equal(s.local, local0) and np.array_equal(s.remote, remote0)
    c = s.eng.counters()
    assert (c["errors"], c["flushed"], c["reads"] + c["writes"]) == (1, 1, 1)
    assert s.eng.qp_error(s.qp.index)


def test_error_state_flushes_until_reset():
    s = Setup()
    s.qp.post(READ, s.raddr(0), 0xBAD, s.laddr(0), s.lkey)
    s.qp.ring()
    s.eng.poll()
    s.read(1, 1)
    s.qp.ring()
    s.eng.poll()
    assert int(s.qp.err[1]["syndrome"]) == mlx5.SYND["WR_FLUSH_ERR"]
    assert not s.lpage(1).any()
    # the host re-initializes the queue memory, then the QP
    s.qp.cq["op_own"] = mlx5.CQE_INIT_OP_OWN
    s.qp.pi = 0
    s.eng.reset_qp(s.qp.index)
    assert not s.eng.qp_error(s.qp.index)
    assert s.qp.uar[0] == 0  # the engine clears its doorbell word
    s.read(1, 1)
    s.qp.ring()
    assert s.eng.poll() == 1
    assert int(s.qp.cqe(0)["op_own"]) >> 4 == mlx5.CQE_REQ
    assert np.array_equal(s.lpage(1), s.rpage(1))


def test_deregistered_key_is_refused():
    s = Setup()
    s.eng.deregister(s.rkey)
    s.read(0, 0)
    s.qp.ring()
    s.eng.poll()
    assert int(s.qp.err[0]["syndrome"]) == mlx5.SYND["REMOTE_ACCESS_ERR"]
    assert int(s.qp.err[0]["vendor_err_synd"]) == mlx5.VS["KEY"]
    with pytest.raises(ValueError, match="unknown key"):
        s.eng.deregister(s.rkey)


def test_bad_doorbells_are_ignored():
    s = Setup(depth=4)
    s.read(0, 0)
    s.qp.uar[0] = mlx5.doorbell_value(mlx5.rdma_wqe(0, READ, s.qp.qpn + 7, 0, 0, 0, 0, 0))
    assert s.eng.poll() == 0
    # announcing more WQEs than the queue holds
    s.qp.uar[0] = mlx5.doorbell_value(mlx5.rdma_wqe(9, READ, s.qp.qpn, 0, 0, 0, 0, 0))
    assert s.eng.poll() == 0
    c = s.eng.counters()
    assert (c["doorbells"], c["bad_doorbells"], c["wqes"]) == (2, 2, 0)
    assert not s.local.any()
    s.qp.ring()
    assert s.eng.poll() == 1


def test_many_qps_are_independent():
    s = Setup(pages=8, depth=4)
    qps = [s.qp] + [HostQp(s.eng, 4) for _ in range(3)]
    assert len({q.qpn for q in qps}) == 4
    for k, q in enumerate(qps):
        s.read(k, k, qp=q)
        s.read(k + 4, k + 4, qp=q)
    for q in qps[::2]:
        q.ring()
    assert s.eng.poll() == 4
    for q in qps[1::2]:
        assert q.cqe(0) is None
        q.ring()
    assert s.eng.poll() == 4
    assert np.array_equal(s.local, s.remote)
    assert s.eng.counters()["doorbells"] == 4


@pytest.mark.parametrize("threads", [1, 3])
def test_engine_threads_serve_doorbells(threads):
    s = Setup(pages=8, depth=4, threads=threads)
    qps = [s.qp] + [HostQp(s.eng, 4) for _ in range(3)]
    s.eng.start()
    try:
        assert s.eng.running
        with pytest.raises(RuntimeError, match="stop the engine"):
            HostQp(s.eng, 4)
        with pytest.raises(RuntimeError, match="running"):
            s.eng.poll()
        for rnd in range(3):
            for k, q in enumerate(qps):
                s.read((k + rnd) % 8, k, qp=q)
                s.read((k + rnd + 4) % 8, k + 4, qp=q)
                q.ring()
            for k, q in enumerate(qps):
                q.wait_cqe(2 * rnd + 1)
                assert np.array_equal(s.lpage(k), s.rpage((k + rnd) % 8))
                assert np.array_equal(s.lpage(k + 4), s.rpage((k + rnd + 4) % 8))
    finally:
        s.eng.stop()
    assert not s.eng.running
    assert s.eng.error is None
    assert s.eng.counters()["wqes"] == 24


def test_stopped_engine_leaves_requests_pending():
    s = Setup()
    s.eng.start()
    s.read(0, 0)
    s.qp.ring()
    s.qp.wait_cqe(0)
    s.eng.stop()
    s.read(1, 1)
    s.qp.ring()
    time.sleep(0.05)
    assert s.qp.cqe(1) is None and not s.lpage(1).any()
    assert s.eng.counters()["wqes"] == 1
    s.eng.start()  # a restarted engine picks the doorbell up
    try:
        s.qp.wait_cqe(1)
    finally:
        s.eng.stop()
    assert np.array_equal(s.lpage(1), s.rpage(1))


def test_stop_while_serving_is_clean():
    s = Setup(pages=8, depth=8)
    s.eng.start()
    for k in range(8):
        s.read(k, k)
    s.qp.ring()
    s.eng.stop()  # returns with no engine thread left, whatever was in flight
    served = s.eng.counters()["wqes"]
    snapshot = s.qp.cq_bytes.copy()
    time.sleep(0.02)
    assert np.array_equal(s.qp.cq_bytes, snapshot)
    # every WQE taken was completed, the rest stayed in the queue
    assert [s.qp.cqe(k) is not None for k in range(8)] == [k < served for k in range(8)]


def test_argument_checks():
    eng = _softrnic.Engine(gpu=False)
    buf = np.zeros(64, dtype=np.uint8)
    with pytest.raises(ValueError, match="empty region"):
        eng.register_region(buf.ctypes.data, 0, ALL_REMOTE)
    with pytest.raises(ValueError, match="power of two"):
        eng.add_qp(buf.ctypes.data, buf.ctypes.data, 3, buf.ctypes.data)
    with pytest.raises(ValueError, match="power of two"):
        eng.add_qp(buf.ctypes.data, buf.ctypes.data, 65536, buf.ctypes.data)
    with pytest.raises(IndexError):
        eng.reset_qp(0)


def test_gpu_mode_without_gpu_fails_with_the_reason():
    from dream.runtime.cuda import gpu_status
    if gpu_status(0)[0] is not None:
        pytest.skip("a GPU is present")
    with pytest.raises(RuntimeError, match="cudaSetDevice"):
        _softrnic.Engine(gpu=True)


def test_a_stream_of_pages_moves_in_one_copy():
    # WQEs whose pages continue each other at both ends (a read-ahead run into
    # consecutive frames) join one copy
    s = Setup(pages=8, depth=8)
    for k in range(4):
        s.read(2 + k, 1 + k)
    s.qp.ring()
    assert s.eng.poll() == 4
    assert np.array_equal(s.local[PAGE:5 * PAGE], s.remote[2 * PAGE:6 * PAGE])
    assert s.eng.counters()["copies"] == 1


def test_only_a_copy_that_continues_the_last_in_its_regions_joins_it():
    # one pass: a join, a gap at the remote end, a gap at the local end, then
    # pages that continue the last copy at both ends but through another
    # region's key (a new copy), and one that continues those
    s = Setup(pages=8, depth=8)
    rkey2 = s.eng.register_region(s.raddr(5), 3 * PAGE, ALL_REMOTE)
    for r, l in ((0, 0), (1, 1), (3, 2), (4, 4)):
        s.read(r, l)
    for p in (5, 6):
        s.qp.post(READ, s.raddr(p), rkey2, s.laddr(p), s.lkey)
    s.qp.ring()
    assert s.eng.poll() == 6
    for r, l in ((0, 0), (1, 1), (3, 2), (4, 4), (5, 5), (6, 6)):
        assert np.array_equal(s.lpage(l), s.rpage(r))
    c = s.eng.counters()
    assert (c["copies"], c["errors"]) == (4, 0)
