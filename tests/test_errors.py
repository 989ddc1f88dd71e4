"""Device errors as the user reads them (Runtime._device_error), from error
records as the GPU writes them (abi.ERROR, sync.cuh dream_fail)."""
import types

import numpy as np

import dream
from dream.runtime import abi
from dream.runtime.runtime import Runtime


def record(**fields):
    e = np.zeros((), dtype=abi.ERROR)
    e["count"] = 1
    for name, value in fields.items():
        e[name] = value
    return e


def message(e) -> dream.DeviceError:
    rt = types.SimpleNamespace(_arrays={}, timeout_s=10.0, backend_name="softrnic", _backend=None)
    return Runtime._device_error(rt, e, "kernel k")


def test_a_queue_wait_names_its_queue_and_entry():
    # queue.cuh records the queue, the entry's index and the opcode
    e = record(code=abi.ERR_TIMEOUT, where=abi.WAIT_COMPLETION, page=7, detail=[21, 143, 0x10, 0])
    err = message(e)
    assert isinstance(err, dream.DreamTimeoutError)
    assert "the completion of a transport request" in str(err)
    assert "page 7 of array slot 0, queue 21, entry index 143, opcode 0x10" in str(err)


def test_a_page_wait_names_no_queue():
    err = message(record(code=abi.ERR_TIMEOUT, where=abi.WAIT_PAGE, page=7, detail=[1, 2, 3, 0]))
    assert isinstance(err, dream.DreamTimeoutError)
    assert "queue" not in str(err) and "another warp's load" in str(err)
