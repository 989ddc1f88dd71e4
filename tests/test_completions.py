"""The soft engines' CQE writer (dream/cuda/completions.h) for CQs in GPU
memory, driven in Dma::Mode::host (plain memcpy where GPU mode issues
copies), so that a CPU machine checks what the engines' GPU-mode CQ writes do:
shadows first, with the data, then the images; a run of adjacent slots of one
CQ joined into one copy each time, split at the CQ's wrap and between CQs."""
import shutil
import subprocess
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "dream" / "cuda"
INCLUDE = SRC / "include"

PROGRAM = r'''
#include <cstdio>
#include <cstdlib>
#include "completions.h"
#include "dream/mlx5.h"
#include "dream/nvme.h"

#define CHECK(c) do { if (!(c)) { std::printf("FAIL line %d: %s\n", __LINE__, #c); std::exit(1); } } while (0)

/* mlx5: CQEs for tickets 5..9 of a depth-8 CQ (they wrap after slot 7), the
   owner bit (t & depth) != 0 as rnic.cuh's poll expects it */
static void mlx5_run()
{
    using dream::Dma;
    constexpr uint32_t D = 8, S = DREAM_MLX5_CQE_SIZE;
    Dma dma(Dma::Mode::host, 0);
    dream::Completions<S, uint64_t, (uint64_t)DREAM_MLX5_CQE_OWNER_MASK << 56> c;
    static uint8_t cq[D * S], images[2 * D * S], other_cq[D * S], other_images[2 * D * S];
    for (uint32_t s = 0; s < D; s++)
        cq[s * S + 63] = other_cq[s * S + 63] = DREAM_MLX5_CQE_INVALID << 4; /* a fresh CQ */
    for (uint32_t t = 5; t < 10; t++) {
        const uint32_t slot = t & (D - 1);
        uint8_t *img = images + slot * S;
        std::memset(img, 0, S);
        img[60] = (uint8_t)t; /* stands for the wqe_counter */
        img[63] = (uint8_t)((DREAM_MLX5_CQE_REQ << 4) | ((t & D) ? 1 : 0));
        c.add(cq + slot * S, img, img + D * S, true, cq);
    }
    /* one entry of another CQ, after slot 1 of the first: never joined to it */
    other_images[2 * S + 63] = (uint8_t)((DREAM_MLX5_CQE_REQ << 4) | 0);
    c.add(other_cq + 2 * S, other_images + 2 * S, other_images + (D + 2) * S, true, other_cq);

    const uint64_t before = dma.copies();
    c.shadows(dma);
    dma.submit();
    CHECK(dma.copies() - before == 3); /* slots 5-7, slots 0-1, the other CQ's slot */
    for (uint32_t t = 5; t < 10; t++) {
        const uint8_t *e = cq + (t & (D - 1)) * S;
        const uint32_t want = (t & D) ? 1 : 0;
        CHECK(e[60] == (uint8_t)t);
        CHECK((e[63] & DREAM_MLX5_CQE_OWNER_MASK) != want); /* "not yet" to the consumer */
        CHECK((e[63] >> 4) == DREAM_MLX5_CQE_REQ);
    }
    CHECK((other_cq[2 * S + 63] & 1) == 1);
    CHECK(cq[2 * S + 63] == DREAM_MLX5_CQE_INVALID << 4); /* slots without a CQE untouched */

    c.post(dma, dma.record());
    CHECK(dma.copies() - before == 6);
    for (uint32_t t = 5; t < 10; t++) {
        const uint8_t *e = cq + (t & (D - 1)) * S;
        CHECK(std::memcmp(e, images + (t & (D - 1)) * S, S) == 0); /* handed over */
    }
    CHECK((other_cq[2 * S + 63] & 1) == 0);
}

/* NVMe: three CQEs, the phase tag (status bit 0) 1 on the first pass */
static void nvme_run()
{
    using dream::Dma;
    constexpr uint32_t N = 4;
    Dma dma(Dma::Mode::host, 0);
    dream::Completions<sizeof(dream_nvme_cqe), uint32_t, 1u << 16> c;
    static dream_nvme_cqe cq[N], images[2 * N];
    for (uint32_t s = 0; s < 3; s++) {
        images[s] = {};
        images[s].cid = (uint16_t)(40 + s);
        images[s].status = (uint16_t)((5u << 1) | 1u);
        c.add((uint8_t *)&cq[s], (const uint8_t *)&images[s], (uint8_t *)&images[N + s], true, cq);
    }
    const uint64_t before = dma.copies();
    c.shadows(dma);
    dma.submit();
    CHECK(dma.copies() - before == 1);
    for (uint32_t s = 0; s < 3; s++) {
        CHECK(cq[s].cid == 40 + s);
        CHECK(cq[s].status == (5u << 1)); /* phase 0: "not yet" on the first pass */
    }
    c.post(dma, dma.record());
    CHECK(dma.copies() - before == 2);
    for (uint32_t s = 0; s < 3; s++)
        CHECK(cq[s].status == ((5u << 1) | 1u));
    CHECK(cq[3].status == 0);
}

int main()
{
    mlx5_run();
    nvme_run();
    std::printf("OK\n");
    return 0;
}
'''


def _nvcc():
    return shutil.which("nvcc") or next((str(p) for p in (Path("/usr/local/cuda/bin/nvcc"),) if p.exists()), None)


@pytest.mark.skipif(_nvcc() is None, reason="nvcc not installed (the engines' headers need the CUDA runtime)")
def test_cqes_in_gpu_memory_are_shadowed_then_handed_over_in_joined_runs(tmp_path):
    src = tmp_path / "completions.cpp"
    src.write_text(PROGRAM)
    exe = tmp_path / "completions"
    r = subprocess.run([_nvcc(), "-std=c++17", f"-I{SRC}", f"-I{INCLUDE}", str(src), "-o", str(exe)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0 and r.stdout.strip() == "OK", r.stdout + r.stderr
