"""GPU tests (marked `gpu`) run only where a usable NVIDIA GPU is present;
elsewhere they are skipped with the reason shown."""
import functools

import pytest


@functools.lru_cache(maxsize=1)
def gpu_reason() -> str:
    from dream.runtime.cuda import gpu_status
    gpu, why = gpu_status(0)
    return "" if gpu else why


def pytest_collection_modifyitems(config, items):
    why = None
    for item in items:
        if "gpu" in item.keywords:
            if why is None:
                why = gpu_reason()
            if why:
                item.add_marker(pytest.mark.skip(reason=f"no GPU here: {why}"))
