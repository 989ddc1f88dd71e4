"""Finding pyverbs and an RDMA device.

pyverbs is not on PyPI; Debian ships it as python3-pyverbs, installed for the
system interpreter under /usr/lib/python3/dist-packages. A virtual
environment does not see that directory, and adding all of it to sys.path
would also shadow the venv's own packages (numpy, ...), so only the pyverbs
package is loaded from there, and only when its extension modules were built
for this interpreter's ABI.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import sysconfig

SYSTEM_DIST_PACKAGES = "/usr/lib/python3/dist-packages"
SYS_INFINIBAND = "/sys/class/infiniband"


def import_pyverbs():
    """The pyverbs package, from this environment or from Debian's
    python3-pyverbs; ImportError says why neither works."""
    try:
        return importlib.import_module("pyverbs")
    except ImportError as e:
        first = e
    pkg = os.path.join(SYSTEM_DIST_PACKAGES, "pyverbs")
    init = os.path.join(pkg, "__init__.py")
    if not os.path.isfile(init):
        raise ImportError(f"pyverbs is not importable ({first}) and {pkg} does not exist: "
                          "install python3-pyverbs (apt-get install python3-pyverbs)") from None
    suffix = sysconfig.get_config_var("EXT_SUFFIX")  # .cpython-311-x86_64-linux-gnu.so
    if not os.path.isfile(os.path.join(pkg, "device" + suffix)):
        raise ImportError(f"{pkg} has no extension modules built for this Python "
                          f"({sys.version.split()[0]}, *{suffix}): python3-pyverbs targets "
                          "the system python3; use a venv of the same minor version") from None
    spec = importlib.util.spec_from_file_location("pyverbs", init,
                                                  submodule_search_locations=[pkg])
    module = importlib.util.module_from_spec(spec)
    sys.modules["pyverbs"] = module
    try:
        spec.loader.exec_module(module)
        importlib.import_module("pyverbs.device")
    except ImportError as e:
        for name in [n for n in sys.modules if n == "pyverbs" or n.startswith("pyverbs.")]:
            del sys.modules[name]
        raise ImportError(f"pyverbs from {pkg} does not load: {e} "
                          "(libibverbs1 missing? apt-get install rdma-core)") from None
    return module


def infiniband_devices() -> dict[str, str]:
    """{RDMA device name: kernel driver} as sysfs lists them."""
    try:
        names = sorted(os.listdir(SYS_INFINIBAND))
    except OSError:
        return {}
    out = {}
    for name in names:
        driver = os.path.join(SYS_INFINIBAND, name, "device", "driver")
        out[name] = os.path.basename(os.path.realpath(driver)) if os.path.exists(driver) else ""
    return out


def mlx5_devices(devices: dict[str, str]) -> list[str]:
    return [n for n, drv in devices.items() if drv == "mlx5_core" or n.startswith("mlx5_")]


def rdma_unavailable_reason() -> str:
    """'' when an mlx5 RDMA device and pyverbs are both here; otherwise
    'no RDMA device: ...' with every reason found."""
    why = []
    devices = infiniband_devices()
    if not devices:
        why.append(f"no {SYS_INFINIBAND} entries (no RDMA NIC, or its driver is not loaded)")
    elif not mlx5_devices(devices):
        listed = ", ".join(f"{n} ({d or 'unknown driver'})" for n, d in devices.items())
        why.append(f"no mlx5 (ConnectX) device among {listed}")
    try:
        import_pyverbs()
    except ImportError as e:
        why.append(str(e))
    return "no RDMA device: " + "; ".join(why) if why else ""
