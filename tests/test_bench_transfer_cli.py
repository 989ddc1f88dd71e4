"""`dream bench transfer` and `dream bench queues` without a GPU: the commands
parse, their options resolve to what run() measures, and the result files
(CSV, PNG) are written from results of the shape run() produces."""
import argparse
import csv
import json

import pytest

from dream.bench import queues, transfer
from dream.runtime.cuda import gpu_status


def parse(mod, *argv):
    p = argparse.ArgumentParser()
    mod.add_arguments(p)
    return p.parse_args(list(argv))


@pytest.mark.parametrize("name", ["transfer", "queues"])
def test_help_exits_0(name, capsys):
    from dream.bench.cli import main
    with pytest.raises(SystemExit) as e:
        main([name, "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert f"dream bench {name}" in out
    assert "--backend" in out and "--quick" in out and "--runs" in out and "--data" in out


def test_dream_bench_transfer_help_through_dream_cli(capsys):
    from dream.cli import main
    with pytest.raises(SystemExit) as e:
        main(["bench", "transfer", "--help"])
    assert e.value.code == 0
    assert "--gather-fraction" in capsys.readouterr().out


def test_transfer_defaults_are_todays():
    st = transfer.settings(parse(transfer))
    assert st.data == 8 << 30
    assert st.pages == [4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20]
    assert st.backends == [("direct", {})]
    assert st.x == 3 and st.runs == 3 and st.gather_fraction == 0.25
    assert st.nvme_data == 2 << 30 and st.nvme_pages == [4 << 10, 64 << 10]
    assert not st.quick and st.device == 0


def test_transfer_quick_with_backends():
    a = parse(transfer, "--quick", "--backend", "direct,softrnic:queue_memory=host",
              "--oversubscription", "3")
    st = transfer.settings(a)
    assert st.quick and st.data == 512 << 20
    assert st.pages == [4 << 10, 64 << 10]
    assert st.backends == [("direct", {}), ("softrnic", {"queue_memory": "host"})]
    assert st.x == 3                                    # ring = data / 4, as before
    from dream.bench.harness import ring_bytes
    assert ring_bytes(st.data, st.x, 4096) == st.data // 4
    assert st.nvme_data <= st.data
    # baselines, then each backend's pages and its serial latency
    assert transfer.points(st) == 1 + 2 * (2 + 1)


def test_transfer_explicit_options_win_over_quick(tmp_path):
    a = parse(transfer, "--quick", "--data", "64MiB", "--page", "16KiB", "--runs", "1",
              "--oversubscription", "1,4", "--backend", "direct,nvme", "--nvme-dir", str(tmp_path),
              "--nvme-data", "1GiB", "--out", str(tmp_path / "r"))
    st = transfer.settings(a)
    assert st.data == 64 << 20 and st.pages == [16 << 10] and st.runs == 1
    assert st.x == 1                                    # the first x given
    assert st.backends[1] == ("nvme", {"directory": str(tmp_path)})
    assert st.nvme_data == 64 << 20                     # never more than the data
    assert st.out == tmp_path / "r"
    assert transfer.points(st) == 1 + 1 + (1 + 1) + (2 + 1)


@pytest.mark.parametrize("argv", [["--runs", "0"], ["--gather-fraction", "0"],
                                  ["--oversubscription", "-1"], ["--data", "1KiB"],
                                  ["--data", "1MiB", "--gather-fraction", "0.001"],
                                  ["--page", "4 bytes"]])
def test_transfer_bad_options_are_config_errors(argv):
    from dream.runtime.errors import ConfigError
    with pytest.raises(ConfigError):
        transfer.settings(parse(transfer, *argv))


def test_queues_defaults_and_quick():
    st = queues.settings(parse(queues))
    assert st.data == 1 << 30 and st.queues == [1, 2, 4, 8, 16, 32, 64, 132]
    assert st.backends == [("softrnic", {})] and st.queue_memory == "gpu"
    assert st.pages == [4096] and st.x == 3 and st.runs == 3
    q = queues.settings(parse(queues, "--quick", "--backend", "softrnic,softrnic:queue_memory=host",
                              "--queue-memory", "host"))
    assert q.data == 256 << 20 and q.queues == [1, 4, 16]
    assert q.backends == [("softrnic", {}), ("softrnic", {"queue_memory": "host"})]
    assert q.queue_memory == "host"
    assert queues.points(q) == 2 * 3
    e = queues.settings(parse(queues, "--quick", "--queues", "2,8", "--data", "64MiB"))
    assert e.queues == [2, 8] and e.data == 64 << 20


def test_queues_bad_queue_memory_is_refused():
    with pytest.raises(SystemExit):
        parse(queues, "--queue-memory", "disk")


def _transfer_result():
    point = {"GBps": 5.0, "seconds": 0.1, "checksum_ok": True, "vs_bulk_h2d": 0.2,
             "vs_zero_copy": 0.5}
    return {"gpu": "Fake GPU", "driver": "13.0", "data_bytes": 512 << 20, "oversubscription": 3,
            "baselines": {"bulk_h2d": {"GBps": 25.0}, "zero_copy_stream": {"GBps": 10.0},
                          "zero_copy_gather": {"GBps": 8.0}, "batched_copy_4k": {"GBps": 6.0},
                          "uvm_stream": {"GBps": 3.0}},
            "dream": {"direct": [{"page_size": 4096, "ring_bytes": 128 << 20, "stream": dict(point),
                                  "gather": {**point, "vs_batched_copy_4k": 0.8, "vs_uvm": 2.0}},
                                 {"page_size": 65536, "error": "DeviceError: boom"}],
                      "softrnic:queue_memory=host": [{"skipped": "not built"}]}}


def test_transfer_csv_and_png(tmp_path):
    pytest.importorskip("matplotlib")
    res = _transfer_result()
    transfer.write_csv(res, tmp_path / "transfer.csv")
    transfer.plot(res, tmp_path / "transfer.png")
    rows = list(csv.DictReader(open(tmp_path / "transfer.csv")))
    assert [(r["backend"], r["pattern"]) for r in rows] == [("direct", "stream"), ("direct", "gather")]
    assert rows[1]["vs_uvm"] == "2.000" and rows[0]["vs_uvm"] == "nan"
    assert rows[0]["driver"] == "13.0" and rows[0]["ring_bytes"] == str(128 << 20)
    assert (tmp_path / "transfer.png").stat().st_size > 0


def test_queues_csv_and_png(tmp_path):
    pytest.importorskip("matplotlib")
    res = {"gpu": "Fake GPU", "driver": "13.0", "bulk_h2d_GBps": 25.0, "runs": [
        {"backend": "softrnic", "queue_memory": m, "page_size": 4096, "ring_bytes": 1 << 20,
         "queues": q, "GBps": 1.0 * q, "vs_bulk_h2d": q / 25, "requests_per_doorbell": 1.5,
         "checksum_ok": True, "stats": {"pages_in": 1}}
        for m in ("gpu", "host") for q in (1, 4, 16)]}
    res["runs"].append({"backend": "softrnic", "queue_memory": "gpu", "page_size": 4096,
                        "ring_bytes": 1 << 20, "queues": 64, "error": "TransportError: x"})
    queues.write_csv(res, tmp_path / "queues.csv")
    queues.plot(res, tmp_path / "queues.png")
    rows = list(csv.DictReader(open(tmp_path / "queues.csv")))
    assert len(rows) == 7 and rows[-1]["error"] == "TransportError: x"
    assert rows[3]["queue_memory"] == "host" and rows[0]["GBps"] == "1.0"
    assert (tmp_path / "queues.png").stat().st_size > 0


@pytest.mark.parametrize("name", ["transfer", "queues"])
def test_run_without_gpu_says_why(name, capsys, tmp_path):
    pytest.importorskip("tqdm")
    if gpu_status(0)[0] is not None:
        pytest.skip("this machine has a GPU")
    from dream.bench.cli import main
    assert main([name, "--quick", "--out", str(tmp_path / "r")]) == 1
    assert "NoDeviceError" in capsys.readouterr().err


def test_finish_writes_the_sweep_and_reports_failures(tmp_path, capsys):
    from dream.bench.cli import finish
    wrote = []
    out = tmp_path / "r"
    status = finish({"device": "x"}, ["a run failed"], out, "transfer",
                    lambda res, p: wrote.append(p), lambda res, p: wrote.append(p))
    assert status == 1
    assert json.loads((out / "transfer.json").read_text()) == {"device": "x", "failed": ["a run failed"]}
    assert wrote == [out / "transfer.csv", out / "transfer.png"]
    assert "FAILED: a run failed" in capsys.readouterr().out
    assert finish({}, [], out, "queues", lambda *a: None, lambda *a: None) == 0


@pytest.mark.parametrize("n", [131, 134, 2000, 4087])
def test_serial_order_defeats_read_ahead(n):
    # the serial latency kernel visits page k * step mod n: every page once,
    # each a stride no fault reads ahead by (abi.h DREAM_AHEAD_STRIDE)
    from dream.runtime import abi
    step = transfer.serial_step(n)
    order = [k * step % n for k in range(n)]
    assert sorted(order) == list(range(n))
    assert all(abs(b - a) > abi.AHEAD_STRIDE for a, b in zip(order, order[1:]))
    # and each page's page before comes after it, or at least n / 2 steps before
    at = {p: k for k, p in enumerate(order)}
    assert all(at[p - 1] > at[p] or at[p] - at[p - 1] >= n // 2 for p in range(1, n))
    with pytest.raises(ValueError, match="too few"):
        transfer.serial_step(130)
