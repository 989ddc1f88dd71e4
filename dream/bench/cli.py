"""`dream bench <experiment> [options]` (also `python -m dream.bench`)."""
from __future__ import annotations

import argparse
import importlib
import sys
from dataclasses import dataclass
from pathlib import Path

from . import EXPERIMENTS


def common_arguments(p: argparse.ArgumentParser, backends="direct", xs="0,1,4,8", pages="4KiB",
                     runs=3, systems="dream,in_memory,uvm,uvm_rm,chunked"):
    """The options every experiment takes (--systems only where the
    experiment has a choice of them: systems=None leaves it out)."""
    p.add_argument("--backend", default=backends,
                   help="comma-separated; options after a colon, e.g. softrnic:queue_memory=host "
                   f"(default {backends})")
    p.add_argument("--oversubscription", default=xs,
                   help=f"x values: ring = data / (1 + x), 0 holds all the data (default {xs})")
    p.add_argument("--page", default=pages, help=f"dream page sizes (default {pages})")
    p.add_argument("--runs", type=int, default=runs, help=f"timed runs per point, median kept (default {runs})")
    p.add_argument("--quick", action="store_true", help="small data: seconds, not minutes")
    p.add_argument("--out", default="bench/results", help="directory for JSON, CSV and PNG")
    p.add_argument("--device", type=int, default=0)
    p.add_argument("--nvme-dir", default=None, help="directory for the nvme backend's files")
    if systems is None:   # the experiment's baselines are fixed (transfer, queues)
        return
    p.add_argument("--systems", default=systems,
                   help="what runs: dream and the baselines in_memory, uvm (first touch), uvm_rm "
                   "(read-mostly advice), chunked (manual partitioning)")


@dataclass
class Sweep:
    """The options of the experiments that sweep one ring over `data` bytes
    (transfer, queues); each adds its own fields."""
    data: int                 # bytes, whole MiB
    pages: list               # dream page sizes (bytes)
    backends: list            # [(name, {options})]
    x: int                    # oversubscription: ring = data / (1 + x)
    runs: int
    out: Path
    device: int
    quick: bool


def sweep(args, name: str, data: str, quick_data: str, pages: str = "", quick_pages: str = "") -> dict:
    """Sweep's fields from the command line: --data and --page (their
    defaults, or the quick ones under --quick, where experiment `name` left
    --page unset), the first --oversubscription x (said when more were
    given), the backends; checks --runs too."""
    from ..runtime.errors import ConfigError
    from ..runtime.sizes import parse_size
    from .harness import parse_backends
    nbytes = parse_size(args.data or (quick_data if args.quick else data), "--data")
    nbytes -= nbytes % (1 << 20)
    if nbytes <= 0:
        raise ConfigError(f"--data {args.data}: at least 1MiB")
    try:
        x = int(str(args.oversubscription).split(",")[0])
    except ValueError:
        raise ConfigError(f"--oversubscription {args.oversubscription!r}: whole numbers") from None
    if x < 0:
        raise ConfigError(f"--oversubscription {x}: x >= 0 (ring = data / (1 + x))")
    if args.runs < 1:
        raise ConfigError(f"--runs {args.runs}: at least 1")
    if "," in str(args.oversubscription):
        print(f"{name}: one oversubscription per run: x = {x} (ring = data / {1 + x})")
    page_text = args.page or (quick_pages if args.quick else pages)
    return dict(data=nbytes, pages=[parse_size(v, "--page") for v in page_text.split(",")],
                backends=parse_backends(args.backend, args.nvme_dir), x=x, runs=args.runs,
                out=Path(args.out), device=args.device, quick=args.quick)


def finish(res: dict, failed: list[str], out: Path, name: str, write_csv, plot) -> int:
    """A sweep's end: <name>.json, .csv and .png under `out`, the failures
    listed; the command's exit status."""
    import json
    res["failed"] = failed
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.json").write_text(json.dumps(res, indent=1, default=str))
    write_csv(res, out / f"{name}.csv")
    plot(res, out / f"{name}.png")
    print(f"wrote {out}/{name}.json, .csv, .png")
    for f in failed:
        print(f"FAILED: {f}")
    return 1 if failed else 0


def plan_from(args):
    """A harness.Plan from the common options."""
    from ..runtime.sizes import parse_size
    from .harness import SYSTEMS, Plan, parse_backends
    systems = args.systems.split(",")
    for s in systems:
        if s not in SYSTEMS:
            raise SystemExit(f"--systems: no system {s!r}; there are {', '.join(SYSTEMS)}")
    return Plan(backends=parse_backends(args.backend, args.nvme_dir),
                xs=[int(x) for x in str(args.oversubscription).split(",")],
                pages=[parse_size(s, "--page") for s in args.page.split(",")],
                runs=args.runs, systems=tuple(systems), out=Path(args.out),
                quick=args.quick, device=args.device)


def main(argv=None, prog="python -m dream.bench") -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("--list", "-l", "list"):
        print("experiments (dream bench <name> --help for options):")
        for name, (_, what) in EXPERIMENTS.items():
            print(f"  {name:17s} {what}")
        return 0 if argv else 2
    name = argv[0]
    if name in ("-h", "--help"):
        print(f"usage: {prog} <experiment> [options] | --list")
        return 0
    if name not in EXPERIMENTS:
        print(f"{prog}: no experiment {name!r}; there are: {', '.join(EXPERIMENTS)}", file=sys.stderr)
        return 2
    mod = importlib.import_module(EXPERIMENTS[name][0])
    p = argparse.ArgumentParser(prog=f"{prog} {name}", description=mod.__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    mod.add_arguments(p)
    args = p.parse_args(argv[1:])
    from ..runtime.errors import DreamError
    try:
        return mod.run(args)
    except DreamError as e:
        print(f"{prog} {name}: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
