"""patches/: every patch is described in its README and applies; where none
is needed (the rnic path), the stock rdma-core provides what dream uses
instead (DevX umems over dma-buf GPU memory)."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

PATCHES = Path(__file__).resolve().parent.parent / "patches"
MLX5DV_H = Path("/usr/include/infiniband/mlx5dv.h")


def test_every_patch_is_described_and_applies():
    readme = (PATCHES / "README.md").read_text()
    patches = sorted(PATCHES.glob("*.patch"))
    for p in patches:
        section = re.search(rf"^## {re.escape(p.name)}\n(.*?)(?=^## |\Z)", readme, re.M | re.S)
        assert section, f"{p.name} has no section in patches/README.md"
        target = re.search(r"^applies to: (\S+)", section.group(1), re.M)
        assert target, f"{p.name}: its section must name the tree it applies to ('applies to: DIR')"
        if not Path(target.group(1)).is_dir():
            pytest.skip(f"{p.name}: {target.group(1)} is not on this machine")
        assert shutil.which("git"), "git is needed to check that patches apply"
        subprocess.run(["git", "apply", "--check", str(p)], cwd=target.group(1), check=True)
    if not patches:
        assert "## None are needed" in readme


def test_stock_mlx5dv_registers_dmabuf_umems():
    if not MLX5DV_H.exists():
        pytest.skip(f"{MLX5DV_H} absent (libibverbs-dev not installed)")
    h = MLX5DV_H.read_text()
    for name in ("mlx5dv_devx_umem_reg_ex", "MLX5DV_UMEM_MASK_DMABUF", "int dmabuf_fd;",
                 "mlx5dv_devx_alloc_uar", "mlx5dv_devx_obj_create"):
        assert name in h, f"{MLX5DV_H} lacks {name}: the rnic path needs an rdma-core with dma-buf umems"


def test_stock_pyverbs_has_what_the_rnic_path_imports():
    from dream.verbs import pyverbs_shim
    try:
        pyverbs_shim.import_pyverbs()
    except ImportError as e:
        pytest.skip(str(e))
    from pyverbs.providers.mlx5 import mlx5_enums as dve
    from pyverbs.providers.mlx5 import mlx5dv
    for name in ("Mlx5Context", "Mlx5DVContextAttr", "Mlx5DevxObj", "Mlx5UAR", "Mlx5UMEM"):
        assert hasattr(mlx5dv, name), name
    for name in ("MLX5DV_CONTEXT_FLAGS_DEVX", "MLX5DV_OBJ_PD", "MLX5DV_UMEM_MASK_DMABUF"):
        assert hasattr(dve, name), name
