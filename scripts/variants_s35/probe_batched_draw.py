"""Held-out draw for wgmma_tma's batches (thirty-fifth session): batched 16-bit products on shapes
drawn at random (seed 3501), float16 and bfloat16, in the batch forms a program meets (both
operands batched row-major, a @ b.T, a.T @ b, a shared B against transposed A matrices, a shared A).
Timed: `auto` (now wgmma_tma's one batched launch where it picks that rung), the route `auto` took
before (heuristic.plain_pick's kernel for the stacked shape: mma_half), and cuBLAS through
torch.matmul on the same memory (strided-batched GEMM; CuPy's matmul takes no bfloat16 and its
batched float16 path is slow, RESULTS.md thirty-fourth session).

Each row is validated first on NaN-poisoned outputs: the first and last matrix of each result
against the float64 product, per element |C - ref| / (|A|·|B|) within 2 * tm.tolerance(dtype, K);
then 3 alternating rounds of CUDA-event medians (L2 flushed before each call), the median of the
rounds. Last: the geometric mean of auto / cuBLAS and auto / old per dtype.

    PYTHONPATH=. python3 scripts/variants_s35/probe_batched_draw.py [SEED] [COUNT]
"""
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "variants_s34"))
from probe_half_batched import alternating  # noqa: E402

FORMS = ["a@b", "a@bT", "aT@b", "aT@b shared B", "a@b shared A"]


def draw(rs, n):
    """n (count, M, N, K, form) draws: count 2-64, M, N, K log-uniform in [48, 4096], at most 2^35
    multiply-adds in all."""
    out = []
    while len(out) < n:
        count = int(round(math.exp(rs.uniform(math.log(2), math.log(64)))))
        M, N, K = (int(round(math.exp(rs.uniform(math.log(48), math.log(4096))))) for _ in range(3))
        if count * M * N * K > 2**35:
            continue
        out.append((count, M, N, K, FORMS[len(out) % len(FORMS)]))
    return out


def operands(rs, count, M, N, K, form, dt):
    """(A, B) device operands of a drawn row, values uniform in [-1, 1) of numpy type `dt`: `count`
    matrices each, or one shared (form "... shared A/B"); a.T / b.T forms as transposed views of
    row-major arrays (A first, then B, from `rs`)."""
    import cupy

    def mat(shape, transpose):
        x = cupy.asarray(rs.uniform(-1, 1, shape[:-2] + (shape[-1], shape[-2]) if transpose else shape).astype(dt))
        return x.swapaxes(-1, -2) if transpose else x

    A = mat((M, K) if form.endswith("shared A") else (count, M, K), form.startswith("aT"))
    B = mat((K, N) if form.endswith("shared B") else (count, K, N), form == "a@bT")
    return A, B


def errors(out, A, B):
    """[(i, error)] for the first and last matrix of the batched result `out`: the largest
    |C - ref| / (|A|·|B|) over its first 256 rows against the float64 product (inf where a NaN is
    left)."""
    import cupy

    count, M = out.shape[0], out.shape[1]
    res = []
    for i in (0, count - 1):
        rows = slice(0, min(M, 256))
        a64 = (A if A.ndim == 2 else A[i])[rows].astype(cupy.float64)
        b64 = (B if B.ndim == 2 else B[i]).astype(cupy.float64)
        ref, scale = a64 @ b64, cupy.abs(a64) @ cupy.abs(b64)
        got = out[i, rows].astype(cupy.float64)
        err = float((cupy.abs(got - ref) / (scale + 1e-30)).max())
        res.append((i, float("inf") if bool(cupy.isnan(got).any()) else err))
    return res


def main() -> int:
    import cupy
    import numpy as np
    import torch
    from ml_dtypes import bfloat16

    import tiled_matmul as tm
    from tiled_matmul import heuristic
    from tiled_matmul.device import device_limits
    from tiled_matmul.measure import L2Flusher

    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 3501
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    rs = np.random.default_rng(seed)
    flush = L2Flusher()
    sms = device_limits(None).sm_count
    print(f"seed {seed}, {torch.cuda.get_device_name()}")
    print("| dtype | batch × M×N×K | form | auto µs | old µs (pick) | cuBLAS µs | auto × cuBLAS | auto × old |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    ratios = {}
    for j, (count, M, N, K, form) in enumerate(draw(rs, n)):
        dname = ("float16", "bfloat16")[j % 2]
        dt = np.float16 if dname == "float16" else bfloat16
        tdt = torch.float16 if dname == "float16" else torch.bfloat16

        A, B = operands(rs, count, M, N, K, form, dt)

        def tview(x):
            return torch.from_dlpack(x.view(cupy.int16)).view(tdt)

        tA, tB = tview(A), tview(B)
        old_name, old_params = heuristic.plain_pick(count * M, N, K, dname, sms, "ieee")
        old_kernel = tm.kernel(old_name, **old_params)
        outs = {k: cupy.empty((count, M, N), dt) for k in ("auto", "old", "cublas")}
        tC = tview(outs["cublas"])
        calls = {
            "auto": lambda: tm.matmul(A, B, out=outs["auto"]),
            "old": lambda: old_kernel(A, B, outs["old"]),
            "cublas": lambda: torch.matmul(tA, tB, out=tC),
        }
        bad = []
        for k, f in calls.items():
            outs[k].view(cupy.int16).fill(-1)  # 0xFFFF: a NaN in both dtypes
            f()
            torch.cuda.synchronize()
            for i, err in errors(outs[k], A, B):
                if not err <= 2 * tm.tolerance(dt, K):
                    bad.append(f"{k} matrix {i}: error {err:.3g}")
        what = f"| {dname} | {count} × {M}×{N}×{K} | {form} |"
        if bad:
            print(f"{what} {'; '.join(bad)} |", flush=True)
            continue
        us, r = alternating(calls, flush)
        ratios.setdefault(dname, []).append((r["cublas"], r["old"]))
        print(f"{what} {us['auto']:.1f} | {us['old']:.1f} ({old_name}) | {us['cublas']:.1f} | {r['cublas']:.2f} | "
              f"{r['old']:.2f} |", flush=True)
        del A, B, outs, tA, tB, tC
        cupy.get_default_memory_pool().free_all_blocks()
    for dname, rr in ratios.items():
        g = [math.exp(statistics.fmean(math.log(x[i]) for x in rr)) for i in (0, 1)]
        print(f"{dname}: {len(rr)} rows, geometric mean auto × cuBLAS {g[0]:.3f} (lowest {min(x[0] for x in rr):.2f}), "
              f"auto × old {g[1]:.3f} (lowest {min(x[1] for x in rr):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
