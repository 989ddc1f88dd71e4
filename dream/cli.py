"""`dream info`: what this machine can run and why not.
`dream demo`: vector add (DREAM Listing 1) at 8x oversubscription.
`dream bench`: the experiments of the DREAM evaluation (dream bench --list)."""
from __future__ import annotations

import argparse
import sys
import time

VADD = r'''
extern "C" __global__ void vadd(dream_ptr<float> a, dream_ptr<float> b,
                                dream_ptr<float> c, unsigned long long n) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}'''


def info(args) -> int:
    from .runtime.backends import all_backends
    from .runtime.cuda import gpu_status
    from . import __version__
    print(f"dream {__version__}")
    gpu, why = gpu_status(args.device)
    if gpu:
        print(f"GPU {gpu.index}: {gpu.name} ({gpu.arch}, {gpu.sms} SMs, "
              f"{gpu.memory / 2**30:.1f} GiB), driver CUDA {gpu.driver_version}, "
              f"runtime {gpu.runtime_version}")
    else:
        print(f"GPU: none usable: {why}")
    from .runtime.compile import toolchain
    ok, what = toolchain()
    print(f"kernels: {'built with ' if ok else 'cannot be built: '}{what}")
    print("backends:")
    for name, cls in sorted(all_backends().items()):
        ok, reason = cls.availability()
        print(f"  {name:9s} {'can run' if ok else 'cannot run'}{'' if ok else ': ' + reason}")
        if hasattr(cls, "hardware"):
            print(f"  {'':9s} {cls.hardware()}")
    return 0


def demo(args) -> int:
    import numpy as np
    from .runtime.cuda import gpu_status
    from .runtime.sizes import format_size, parse_size
    gpu, why = gpu_status(args.device)
    if gpu is None:
        print(f"dream demo needs an NVIDIA GPU and this machine has none usable: {why}",
              file=sys.stderr)
        return 2
    import dream
    ring = parse_size(args.gpu_memory, "--gpu-memory")
    data = ring * (1 + args.oversubscription)          # ring = data / (1 + x)
    n = data // 3 // 4                                   # three float32 arrays
    print(f"vector add: 3 x {n:,} float32 = {format_size(3 * n * 4)} through a "
          f"{format_size(ring)} frame ring ({args.oversubscription}x oversubscription), "
          f"backend {args.backend!r}, page {args.page_size}, on {gpu.name}")
    rng = np.random.default_rng(0)
    ha = rng.random(n, dtype=np.float32)
    hb = rng.random(n, dtype=np.float32)
    with dream.Runtime(backend=args.backend, page_size=args.page_size, gpu_memory=ring,
                       device=args.device) as rt:
        a, b = rt.array(ha, name="a"), rt.array(hb, name="b")
        c = rt.empty(n, np.float32, name="c")
        k = rt.kernel(VADD, "vadd")
        block = 256
        grid = max(1, min(-(-n // block), rt.nframes // block))
        t = time.perf_counter()
        k(grid, block, (a, b, c, np.uint64(n)))
        dt = time.perf_counter() - t
        out = c.to_numpy()
        ok = np.array_equal(out, ha + hb)
        moved = 3 * n * 4
        print(f"kernel: {dt * 1e3:.1f} ms, {moved / dt / 1e9:.2f} GB/s of array data "
              f"(2 reads + 1 write per element)")
        print(rt.stats())
        print("result matches NumPy" if ok else "RESULT DIFFERS FROM NUMPY")
    return 0 if ok else 1


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="dream", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    pi = sub.add_parser("info", help="GPU, driver, CUDA and which backends can run here")
    pi.add_argument("--device", type=int, default=0)
    pd = sub.add_parser("demo", help="vector add at 8x oversubscription, checked against NumPy")
    pd.add_argument("--backend", default="direct")
    pd.add_argument("--page-size", default="4KiB")
    pd.add_argument("--gpu-memory", default="256MiB", help="frame ring size")
    pd.add_argument("--oversubscription", type=int, default=8)
    pd.add_argument("--device", type=int, default=0)
    sub.add_parser("bench", help="the DREAM evaluation: dream bench --list", add_help=False)
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["bench"]:   # the experiments parse their own options
        from .bench.cli import main as bench_main
        return bench_main(argv[1:], prog="dream bench")
    args = p.parse_args(argv)
    from .runtime.errors import DreamError
    try:
        return info(args) if args.cmd == "info" else demo(args)
    except DreamError as e:
        print(f"dream {args.cmd}: {type(e).__name__}: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
