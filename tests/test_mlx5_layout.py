"""mlx5 wire formats: the Python mirror (dream.verbs.mlx5) against the
compiler's layout of mlx5.h (dream._softrnic.layouts), the header against
rdma-core's mlx5dv.h where installed, and the RNIC device code compiling for
Hopper (nvcc and NVRTC), no GPU needed."""
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from dream import _softrnic
from dream.runtime.compile import INCLUDE_DIR, compile_source
from dream.verbs import mlx5
from mirrors import assert_constants_mirror, assert_struct_mirrors


@pytest.mark.parametrize("cname", sorted(mlx5.MIRRORS))
def test_struct_mirror(cname):
    assert_struct_mirrors(cname, _softrnic.layouts[cname], mlx5.MIRRORS[cname])


def test_every_layout_is_mirrored():
    assert set(_softrnic.layouts) == set(mlx5.MIRRORS)


def test_constants_mirror():
    assert_constants_mirror(mlx5.constants(), _softrnic.constants)


def test_wqe_bytes_are_big_endian():
    w = mlx5.rdma_wqe(index=0x1234, opcode=mlx5.OPCODE_RDMA_READ, qpn=0xABCDEF,
                      raddr=0x1122334455667788, rkey=0x99AABBCC, laddr=0x0102030405060708,
                      lkey=0x0D0E0F10, length=4096)
    b = w.tobytes()
    assert len(b) == mlx5.SEND_WQE_BB
    assert b[0:4] == bytes([0x00, 0x12, 0x34, 0x10])     # opmod, index, opcode
    assert b[4:8] == bytes([0xAB, 0xCD, 0xEF, 0x03])     # qpn, ds
    assert b[11] == mlx5.WQE_CTRL_CQ_UPDATE
    assert b[16:24] == bytes.fromhex("1122334455667788")
    assert b[24:28] == bytes.fromhex("99aabbcc")
    assert b[32:36] == (4096).to_bytes(4, "big")
    assert b[36:40] == bytes.fromhex("0d0e0f10")
    assert b[40:48] == bytes.fromhex("0102030405060708")
    assert mlx5.doorbell_value(w).to_bytes(8, "little") == b[:8]


def test_describe_detail():
    d = (mlx5.SYND["REMOTE_ACCESS_ERR"] | mlx5.VS["KEY"] << 8, 3, 17, mlx5.OPCODE_RDMA_READ)
    text = mlx5.describe_detail(d, mlx5.VENDOR_SYNDROMES)
    assert "RDMA READ" in text and "REMOTE_ACCESS_ERR" in text and "key of no registered" in text
    assert "queue 3" in text and "WQE 17" in text
    bad = mlx5.describe_detail((mlx5.RNIC_BAD_CQE | 0x01, 0, 5 | 9 << 16, mlx5.OPCODE_RDMA_WRITE))
    assert "protocol fault" in bad and "WQE 5" in bad and "reports WQE 9" in bad


MLX5DV = Path("/usr/include/infiniband/mlx5dv.h")
SAME_AS_RDMA_CORE = r'''
#include <infiniband/mlx5dv.h>
#include <cstddef>
#include "dream/mlx5.h"
#define SAME(a, b, f) static_assert(offsetof(a, f) == offsetof(b, f), #a "." #f)
SAME(mlx5_wqe_ctrl_seg, dream_mlx5_ctrl_seg, qpn_ds);
SAME(mlx5_wqe_ctrl_seg, dream_mlx5_ctrl_seg, signature);
SAME(mlx5_wqe_ctrl_seg, dream_mlx5_ctrl_seg, fm_ce_se);
SAME(mlx5_wqe_ctrl_seg, dream_mlx5_ctrl_seg, imm);
SAME(mlx5_wqe_raddr_seg, dream_mlx5_raddr_seg, rkey);
SAME(mlx5_wqe_data_seg, dream_mlx5_data_seg, lkey);
SAME(mlx5_wqe_data_seg, dream_mlx5_data_seg, addr);
SAME(mlx5_cqe64, dream_mlx5_cqe64, srqn_uidx);
SAME(mlx5_cqe64, dream_mlx5_cqe64, byte_cnt);
SAME(mlx5_cqe64, dream_mlx5_cqe64, timestamp);
SAME(mlx5_cqe64, dream_mlx5_cqe64, sop_drop_qpn);
SAME(mlx5_cqe64, dream_mlx5_cqe64, wqe_counter);
SAME(mlx5_cqe64, dream_mlx5_cqe64, op_own);
SAME(mlx5_err_cqe, dream_mlx5_err_cqe, vendor_err_synd);
SAME(mlx5_err_cqe, dream_mlx5_err_cqe, syndrome);
SAME(mlx5_err_cqe, dream_mlx5_err_cqe, s_wqe_opcode_qpn);
SAME(mlx5_err_cqe, dream_mlx5_err_cqe, wqe_counter);
static_assert(sizeof(mlx5_cqe64) == sizeof(dream_mlx5_cqe64), "cqe64");
static_assert(sizeof(mlx5_err_cqe) == sizeof(dream_mlx5_err_cqe), "err cqe");
static_assert(sizeof(mlx5_wqe_ctrl_seg) == sizeof(dream_mlx5_ctrl_seg), "ctrl");
static_assert(MLX5_OPCODE_RDMA_READ == DREAM_MLX5_OPCODE_RDMA_READ, "read");
static_assert(MLX5_OPCODE_RDMA_WRITE == DREAM_MLX5_OPCODE_RDMA_WRITE, "write");
static_assert(MLX5_WQE_CTRL_CQ_UPDATE == DREAM_MLX5_WQE_CTRL_CQ_UPDATE, "ce");
static_assert(MLX5_WQE_CTRL_FENCE == DREAM_MLX5_WQE_CTRL_FENCE, "fence");
static_assert(MLX5_WQE_CTRL_SOLICITED == DREAM_MLX5_WQE_CTRL_SOLICITED, "se");
static_assert(MLX5_SEND_WQE_BB == DREAM_MLX5_SEND_WQE_BB, "bb");
static_assert(MLX5_CQE_REQ == DREAM_MLX5_CQE_REQ, "req");
static_assert(MLX5_CQE_REQ_ERR == DREAM_MLX5_CQE_REQ_ERR, "req err");
static_assert(MLX5_CQE_INVALID == DREAM_MLX5_CQE_INVALID, "invalid");
static_assert(MLX5_SND_DBR == DREAM_MLX5_SND_DBR, "snd dbr");
static_assert(MLX5_INLINE_SEG == DREAM_MLX5_INLINE_SEG, "inline");
'''


def _cxx():
    return shutil.which("g++") or shutil.which("c++")


@pytest.mark.skipif(not MLX5DV.exists(), reason="rdma-core's mlx5dv.h is not installed "
                    "(apt-get install libibverbs-dev)")
@pytest.mark.skipif(_cxx() is None, reason="no C++ compiler")
def test_header_matches_rdma_core(tmp_path):
    src = tmp_path / "same.cpp"
    synd = "\n".join(f"static_assert(MLX5_CQE_SYNDROME_{n} == DREAM_MLX5_SYND_{n}, \"{n}\");"
                     for n in mlx5.SYNDROMES.values())
    src.write_text(SAME_AS_RDMA_CORE + synd + "\n")
    r = subprocess.run([_cxx(), "-std=c++17", "-fsyntax-only", f"-I{INCLUDE_DIR}", str(src)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.skipif(_cxx() is None, reason="no C++ compiler")
@pytest.mark.parametrize("lang", ["c", "c++"])
def test_header_compiles_as_plain_c_and_cxx(tmp_path, lang):
    src = tmp_path / ("h.c" if lang == "c" else "h.cpp")
    src.write_text('#include "dream/mlx5.h"\nint main(void) { return 0; }\n')
    r = subprocess.run([_cxx(), "-x", lang, "-fsyntax-only", "-Wall", "-Werror",
                        f"-I{INCLUDE_DIR}", str(src)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


KERNEL = r'''
extern "C" __global__ void touch(dream_ptr<float> a, unsigned long long n) {
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] + 1.0f;
}
'''
DEVICE_SAMPLE = '#include "dream/dream.cuh"\n#include "dream/maintenance.cuh"\n' + KERNEL


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")
def test_rnic_device_code_compiles_with_nvcc(tmp_path):
    src = tmp_path / "rnic.cu"
    src.write_text(DEVICE_SAMPLE)
    out = tmp_path / "rnic.ptx"
    r = subprocess.run(["nvcc", "-std=c++17", "-arch=sm_90", "--ptx", "-DDREAM_BACKEND_RNIC",
                        f"-I{INCLUDE_DIR}", str(src), "-o", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    ptx = out.read_text()
    # the UAR doorbell is a strong MMIO store, the WQE/doorbell ordering sys-scope fences
    assert "st.mmio.relaxed.sys.global.b64" in ptx
    assert "fence.sc.sys" in ptx or "membar.sys" in ptx


def test_rnic_device_code_compiles_with_nvrtc():
    image, lowered = compile_source(KERNEL, ("touch",), "sm_90",
                                    ("DREAM_BACKEND_RNIC",))
    assert image[:4] == b"\x7fELF" and lowered == {"touch": "touch"}
    image, _ = compile_source('#include "dream/maintenance.cuh"\n', ("dream_flush",),
                              "compute_90", ("DREAM_BACKEND_RNIC",))
    assert b"st.mmio.relaxed.sys.global.b64" in image


def test_cqe_init_value_is_invalid_owner_zero():
    assert mlx5.cqe_opcode(mlx5.CQE_INIT_OP_OWN) == mlx5.CQE_INVALID
    assert mlx5.cqe_owner(mlx5.CQE_INIT_OP_OWN) == 0
    assert np.dtype(mlx5.CQE64).fields["op_own"][1] == 63
