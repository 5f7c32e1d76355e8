"""One case of a known performance gap, run a few times so ncu can profile it (and print what our
side chose: strategy, config, registers, shared memory).

    python3 scripts/profile_gaps.py CASE        # CASE: dmma4096, batched64, alphabeta, plain4096
    ncu --section SpeedOfLight ... -k regex:'tm_|gemm|xmma|sm90' python3 scripts/profile_gaps.py dmma4096

Each case runs ours then cupy.matmul (cuBLAS) three times each, so with ncu's --launch-skip the
profiled launches are warm.
"""

from __future__ import annotations

import sys

import cupy as cp

import tiled_matmul as tm


def main(case: str) -> None:
    rng = cp.random.default_rng(0)
    if case == "dmma4096":
        a = rng.standard_normal((4096, 4096)); b = rng.standard_normal((4096, 4096))
        ours = lambda: tm.matmul(a, b)
        ref = lambda: cp.matmul(a, b)
    elif case == "batched64":
        a = rng.standard_normal((4096, 64, 64), dtype=cp.float32); b = rng.standard_normal((4096, 64, 64), dtype=cp.float32)
        ours = lambda: tm.matmul(a, b)
        ref = lambda: cp.matmul(a, b)
    elif case in ("alphabeta", "plain4096"):
        a = rng.standard_normal((4096, 4096), dtype=cp.float32); b = rng.standard_normal((4096, 4096), dtype=cp.float32)
        c = rng.standard_normal((4096, 4096), dtype=cp.float32)
        ours = (lambda: tm.gemm(a, b, c, alpha=0.5, beta=2.0)) if case == "alphabeta" else (lambda: tm.matmul(a, b))
        ref = lambda: cp.matmul(a, b)
    else:
        raise SystemExit(f"unknown case {case!r}")
    for _ in range(3):
        ours()
    for _ in range(3):
        ref()
    cp.cuda.Device().synchronize()
    k = tm.kernel("auto").kernel_for(a.shape[-2], b.shape[-1], a.shape[-1], dtype=a.dtype)
    print(case, "auto picks:", k.strategy.name, k.config.params(), file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
