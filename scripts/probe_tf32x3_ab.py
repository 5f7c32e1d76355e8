"""tf32x3 A/B in one process: the shipped wgmma_tma_tf32 kernel against a variant whose A split
keeps A's own bits as the big part (the tensor core truncates them) and writes only the small
parts, alternating blocks of back-to-back calls, with the SM clock and board power after each
block (torch.cuda.clock_rate / power_draw, NVML), so that both see the same power-capped clocks.

    PYTHONPATH=. python3 scripts/probe_tf32x3_ab.py [--size 8192] [--rounds 6] [--calls 20]

An experiment, not a shipped mode: the variant is registered as a user strategy from the
template's text with the split lines replaced.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

PLAIN_SPLIT = """                        uint4 big, small;
                        split_tf32(x.x, big.x, small.x, guard);
                        split_tf32(x.y, big.y, small.y, guard);
                        split_tf32(x.z, big.z, small.z, guard);
                        split_tf32(x.w, big.w, small.w, guard);
                        sm[idx] = small;
                        reinterpret_cast<uint4*>(as)[idx] = big;
"""
TRUNC_SPLIT = """                        uint4 small;  // big: x's own bits (the tensor core truncates them)
                        small.x = trunc_small(x.x, guard);
                        small.y = trunc_small(x.y, guard);
                        small.z = trunc_small(x.z, guard);
                        small.w = trunc_small(x.w, guard);
                        sm[idx] = small;
"""
HELPER = """
__device__ __forceinline__ unsigned trunc_small(float x, RangeGuard& guard) {
    guard.see(x);
    return round_tf32(x - __uint_as_float(__float_as_uint(x) & 0xffffe000u));
}
"""


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", type=int, default=8192)
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--calls", type=int, default=20)
    args = p.parse_args(argv)

    import cupy
    import torch

    import tiled_matmul as tm
    from tiled_matmul import numerics
    from tiled_matmul.measure import cublas_compute_type, make_inputs
    from tiled_matmul.strategies.wgmma_tma_tf32 import WgmmaTmaTf32Config

    src = (Path(tm.__file__).parent.parent / "kernels" / "16_wgmma_tma_tf32.cu.j2").read_text()
    assert src.count(PLAIN_SPLIT) == 1, "the template's plain split changed: update this probe"
    anchor = '{% include "_tf32_split.cuh.j2" %}\n'
    text = src.replace(PLAIN_SPLIT, TRUNC_SPLIT).replace(anchor, anchor + HELPER)

    @dataclass(frozen=True)
    class TruncConfig(WgmmaTmaTf32Config):
        STRATEGY: ClassVar[str] = "x3_trunc_probe"

    tm.register_strategy("x3_trunc_probe", template=text, config=TruncConfig, replace=True)
    n = args.size
    a, b, c = make_inputs((n, n, n), "float32", 1, seed=0)[0]
    ref, den = numerics.reference(a, b)
    with cublas_compute_type("fp32"):
        runs = {"cuBLAS FP32": lambda: cupy.matmul(a, b, out=c),
                "tf32x3 rn": lambda k=tm.kernel("wgmma_tma_tf32", precision="tf32x3"): k(a, b, out=c),
                "tf32x3 trunc-A": lambda k=tm.kernel("x3_trunc_probe"): k(a, b, out=c)}
        for name, fn in runs.items():
            c.fill(cupy.nan)
            fn()
            if name != "cuBLAS FP32":
                err = numerics.componentwise_error(c, a, b, ref, den)
                print(f"{name}: componentwise error {err:.3g} (bound {numerics.bound('tf32x3', n):.2g})", flush=True)
        seen = {name: [] for name in runs}
        start, stop = cupy.cuda.Event(), cupy.cuda.Event()
        for r in range(args.rounds):
            for name, fn in (runs.items() if r % 2 == 0 else reversed(list(runs.items()))):
                fn()
                start.record()
                for _ in range(args.calls):
                    fn()
                stop.record()
                stop.synchronize()
                ms = cupy.cuda.get_elapsed_time(start, stop) / args.calls
                seen[name].append((2 * n**3 / ms / 1e9, torch.cuda.clock_rate(), torch.cuda.power_draw() / 1000))
    print(f"| kernel | TF/s median (min-max) over {args.rounds} blocks of {args.calls} calls | SM MHz | W |")
    for name, rows in seen.items():
        tf = [x[0] for x in rows]
        print(f"| {name} | {statistics.median(tf):.1f} ({min(tf):.1f}-{max(tf):.1f}) | "
              f"{statistics.median(x[1] for x in rows):.0f} | {statistics.median(x[2] for x in rows):.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
