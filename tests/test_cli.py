import os
import subprocess
import sys

import pytest

from dream.runtime.cuda import gpu_status


def run(*args):
    # cwd away from the checkout: `-m` must find the installed package, not ../dream
    return subprocess.run([sys.executable, "-m", "dream", *args], capture_output=True,
                          text=True, timeout=300, cwd=os.path.dirname(__file__))


def test_info_lists_every_backend_with_a_reason():
    r = run("info")
    assert r.returncode == 0, r.stderr
    for name in ("direct",):
        assert f"  {name}" in r.stdout
    # kernels build without a GPU too (NVRTC, nvJitLink): CI compiles every kernel
    assert "kernels: built with NVRTC 13." in r.stdout and "nvJitLink 13." in r.stdout, r.stdout
    for line in r.stdout.splitlines():
        if "cannot run" in line:
            assert line.split("cannot run", 1)[1].startswith(": ") and len(line) > 30
    # the soft engines say what serves their queues: software, no NIC or SSD
    assert "software RNIC, no NIC involved" in r.stdout and "software NVMe controller" in r.stdout


def test_info_and_demo_without_gpu():
    gpu, why = gpu_status(0)
    if gpu is not None:
        pytest.skip("this machine has a GPU")
    r = run("info")
    assert "GPU: none usable" in r.stdout
    assert "direct    cannot run" in r.stdout
    d = run("demo")
    assert d.returncode != 0
    assert "needs an NVIDIA GPU" in d.stderr


@pytest.mark.gpu
def test_demo_on_gpu():
    r = run("demo", "--gpu-memory", "64MiB")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "result matches NumPy" in r.stdout
    assert "8x oversubscription" in r.stdout
