"""16-bit batched products (every operand batched): `auto` (wgmma_tma's batched kernel, one launch
walking every matrix's tiles), the rung that ran them before (mma_half), cuBLAS's batched call
(cupy.matmul on the stacked operands: strided batched GEMM) and cuBLAS one matrix at a time
(cupy.matmul per matrix, its fast single-GEMM path), float16 (CuPy's matmul takes no bfloat16).
Forms: a @ b, a @ b.T (b stored N x K per matrix, as attention's Q @ K^T reads K).

Each row is validated first on a NaN-poisoned C: two matrices of the batch against the float64
product, per element |C - ref| / (|A|·|B|) within 2 * tm.tolerance(float16, K); then 3 alternating
rounds of CUDA-event medians (L2 flushed before each call), the median of the rounds.

    PYTHONPATH=. python3 scripts/variants_s34/probe_half_batched.py
"""
import statistics
import sys

SHAPES = [(8, 4096, 4096, 4096), (8, 2048, 2048, 2048), (32, 1024, 1024, 1024), (64, 512, 512, 512),
          (4, 3000, 2000, 1536), (96, 512, 512, 64), (96, 512, 64, 512), (16, 1000, 1000, 999)]


def alternating(calls: dict, flush, base: str = "auto", rounds: int = 3) -> tuple[dict, dict]:
    """Each of `calls` (label -> function) timed in `rounds` alternating rounds (CUDA-event medians
    of 5 after 2 warm-ups, L2 flushed before each call): label -> median µs, and label -> the
    median over the rounds of its time / `base`'s."""
    from tiled_matmul.measure import time_fn

    t = {k: [] for k in calls}
    for _ in range(rounds):
        for k, f in calls.items():
            t[k].append(time_fn(lambda i, f=f: f(), repeat=5, warmup=2, flush=flush).median_ms)
    us = {k: statistics.median(v) * 1e3 for k, v in t.items()}
    return us, {k: statistics.median(b / a for a, b in zip(t[base], t[k])) for k in calls}


def main() -> None:
    import cupy
    import numpy as np

    import tiled_matmul as tm
    from tiled_matmul.measure import L2Flusher, cublas_compute_type

    flush = L2Flusher()
    rs = np.random.default_rng(3401)
    print("| batch × M×N×K | form | auto µs | mma_half µs | cuBLAS batched µs | cuBLAS per matrix µs | "
          "auto × batched | auto × per matrix | auto × mma_half |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for count, M, N, K in SHAPES:
        for form in ("a@b", "a@bT"):
            A = cupy.asarray(rs.uniform(-1, 1, (count, M, K)).astype(np.float16))
            if form == "a@b":
                B = cupy.asarray(rs.uniform(-1, 1, (count, K, N)).astype(np.float16))
            else:
                B = cupy.asarray(rs.uniform(-1, 1, (count, N, K)).astype(np.float16)).transpose(0, 2, 1)
            outs = {k: cupy.empty((count, M, N), np.float16) for k in ("auto", "mma_half", "batched", "loop")}
            calls = {
                "auto": lambda: tm.matmul(A, B, out=outs["auto"]),
                "mma_half": lambda: tm.matmul(A, B, out=outs["mma_half"], strategy="mma_half"),
                "batched": lambda: cupy.matmul(A, B, out=outs["batched"]),
                "loop": lambda: [cupy.matmul(A[i], B[i], out=outs["loop"][i]) for i in range(count)],
            }
            with cublas_compute_type("fp32", "float16"):
                bad = []
                for k, f in calls.items():
                    outs[k].fill(float("nan"))
                    f()
                    for i in (0, count - 1):
                        rows = slice(0, min(M, 256))
                        a64, b64 = A[i, rows].astype(cupy.float64), B[i].astype(cupy.float64)
                        ref, scale = a64 @ b64, cupy.abs(a64) @ cupy.abs(b64)
                        got = outs[k][i, rows].astype(cupy.float64)
                        err = float((cupy.abs(got - ref) / (scale + 1e-30)).max())
                        if not err <= 2 * tm.tolerance(np.float16, K) or bool(cupy.isnan(got).any()):
                            bad.append(f"{k} matrix {i}: error {err:.3g}")
                if bad:
                    print(f"| {count} × {M}×{N}×{K} | {form} | {'; '.join(bad)} |", flush=True)
                    continue
                us, r = alternating(calls, flush)
            print(f"| {count} × {M}×{N}×{K} | {form} | {us['auto']:.1f} | {us['mma_half']:.1f} | {us['batched']:.1f} | "
                  f"{us['loop']:.1f} | {r['batched']:.2f} | {r['loop']:.2f} | {r['mma_half']:.2f} |", flush=True)
            del A, B, outs
            cupy.get_default_memory_pool().free_all_blocks()
    return 0


if __name__ == "__main__":
    sys.exit(main())
