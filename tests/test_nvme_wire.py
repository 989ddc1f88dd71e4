"""NVMe wire formats: the Python mirror (dream.nvme.wire) against the
compiler's layout of nvme.h (dream._softnvme.layouts), the header compiling
as C and C++, and the NVMe device code compiling for Hopper (nvcc, NVRTC),
no GPU needed."""
import shutil
import subprocess

import numpy as np
import pytest

from dream import _softnvme
from dream.nvme import controller, wire
from dream.runtime.compile import INCLUDE_DIR, compile_source
from mirrors import assert_constants_mirror, assert_struct_mirrors


@pytest.mark.parametrize("cname", sorted(wire.MIRRORS))
def test_struct_mirror(cname):
    assert_struct_mirrors(cname, _softnvme.layouts[cname], wire.MIRRORS[cname])


def test_every_layout_is_mirrored():
    assert set(_softnvme.layouts) == set(wire.MIRRORS)


def test_constants_mirror():
    assert_constants_mirror(wire.constants(), _softnvme.constants)


def test_sqe_bytes_follow_the_spec():
    """CDW0 = opcode | flags << 8 | cid << 16; NLB is zero-based, in CDW12."""
    e = wire.sqe(wire.OPC_READ, cid=0xBEEF, nsid=7, slba=0x1122334455, nblocks=8,
                 prp1=0xAABBCCDD000, prp2=0x1000)
    dw = np.frombuffer(e.tobytes(), dtype="<u4")
    assert dw[0] == 0xBEEF0002
    assert dw[1] == 7
    assert int(dw[6]) | (int(dw[7]) << 32) == 0xAABBCCDD000
    assert int(dw[10]) | (int(dw[11]) << 32) == 0x1122334455
    assert dw[12] == 7


def test_cqe_status_field():
    e = np.zeros(1, dtype=wire.CQE)
    e["status"] = (wire.SC["LBA_RANGE"] | wire.SF_DNR) << 1 | 1
    dw3 = int(np.frombuffer(e.tobytes(), dtype="<u4")[3])
    assert (dw3 >> 16) & 1 == 1                        # phase tag: bit 16 of DW3
    assert (dw3 >> 17) & 0xFF == 0x80                  # SC
    assert (dw3 >> 25) & 7 == wire.SCT_GENERIC         # SCT
    assert dw3 >> 31 == 1                              # DNR
    s = wire.cqe_status(int(e["status"][0]))
    assert "LBA Out of Range" in wire.describe_status(s) and "do not retry" in wire.describe_status(s)


def test_doorbell_offsets():
    assert wire.sq_tail_doorbell(0, 0) == 0x1000
    assert wire.cq_head_doorbell(0, 0) == 0x1004
    assert wire.sq_tail_doorbell(3, 0) == 0x1018
    assert wire.cq_head_doorbell(3, 2) == 0x1000 + 7 * 16


@pytest.mark.parametrize("page", [4096, 8192, 16384, 64 << 10, 2 << 20, 4 << 20, 16 << 20])
def test_prp_lists_cover_the_page(page):
    """The host's per-frame lists, read the way the controller walks them,
    name every controller page of the frame once, in order."""
    n, stride = controller.prp_layout(page)
    pages = page // wire.CTRL_PAGE
    if pages <= 2:
        assert n == 0
        return
    assert n * 8 <= stride
    if n <= wire.PRP_PER_PAGE:
        assert stride & (stride - 1) == 0  # power of two: never crosses a controller page
    base, frame = 0x7F0000000000, 0x100000000
    mem = np.zeros(stride // 8, dtype="<u8")
    wire.fill_prp_list(mem, base, frame, pages)
    got, list_addr, left = [], base, pages - 1
    while left:
        room = (wire.CTRL_PAGE - (list_addr % wire.CTRL_PAGE)) // 8
        k0 = (list_addr - base) // 8
        ent = mem[k0:k0 + min(room, left)]
        if left <= room:
            got += [int(x) for x in ent]
            left = 0
        else:
            got += [int(x) for x in ent[:room - 1]]
            left -= room - 1
            list_addr = int(mem[k0 + room - 1])
    assert got == [frame + k * wire.CTRL_PAGE for k in range(1, pages)]


def test_device_code_compiles_with_nvrtc():
    src = r'''extern "C" __global__ void touch(dream_ptr<float> a, unsigned long long n) {
        unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
        if (i < n) a[i] += 1.0f; }'''
    ptx, _ = compile_source(src, ("touch",), "compute_90", ("DREAM_BACKEND_NVME",))
    assert b"st.mmio.relaxed.sys.global.b32" in ptx  # the doorbell stores


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")
def test_device_code_compiles_with_nvcc(tmp_path):
    src = tmp_path / "k.cu"
    src.write_text('#include "dream/maintenance.cuh"\n'
                   'extern "C" __global__ void k(dream_ptr<double> a) { a[threadIdx.x] *= 2; }\n')
    r = subprocess.run(["nvcc", "-std=c++17", "-DDREAM_BACKEND_NVME", "--ptx", "-arch=sm_90",
                        f"-I{INCLUDE_DIR}", str(src), "-o", str(tmp_path / "k.ptx")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert ".entry dream_flush" in (tmp_path / "k.ptx").read_text()


@pytest.mark.parametrize("lang", ["c", "c++"])
def test_header_is_plain_c_and_cxx(tmp_path, lang):
    cc = shutil.which("gcc" if lang == "c" else "g++")
    if cc is None:
        pytest.skip(f"no {lang} compiler")
    src = tmp_path / ("h.c" if lang == "c" else "h.cpp")
    src.write_text('#include "dream/nvme.h"\nint main(void) { return sizeof(dream_nvme_sqe) != 64; }\n')
    r = subprocess.run([cc, "-fsyntax-only", "-Wall", "-Werror", f"-I{INCLUDE_DIR}", str(src)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("page", [16384, 64 << 10, 2 << 20, 8 << 20])
def test_frame_prp_lists_match_the_reference(page):
    n, stride = controller.prp_layout(page)
    base, frames, nframes = 0x7E0000000000, 0x200000000, 3
    got = controller.frame_prp_lists(base, stride, frames, page, nframes)
    for f in range(nframes):
        want = np.zeros(stride // 8, dtype="<u8")
        wire.fill_prp_list(want, base + f * stride, frames + f * page, page // wire.CTRL_PAGE)
        assert np.array_equal(got[f * stride // 8:(f + 1) * stride // 8], want)
        assert want[:n].all() and not want[n:].any()
