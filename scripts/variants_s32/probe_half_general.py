"""16-bit calls that are not plain 2-D row-major products (auto runs them on the cp.async rungs,
heuristic.plain_pick: mma_half) against cuBLAS on the same operands, in one run:

- layouts: a @ b.T, a.T @ b, a.T @ b.T (views of column-major copies made outside the timing);
- out32: a float32 C (out_dtype=float32; cuBLAS: cupy.matmul into a float16 C, the plain call);
- batch: 8 matrices (cupy.matmul on the same stacked operands: strided batched GEMM);
- bias+gelu: tm.gemm(a, b, bias=, activation="gelu") against cupy.matmul and one elementwise kernel
(these two float16 only: CuPy's batched matmul and elementwise kernels take no bfloat16).

    PYTHONPATH=. python3 scripts/variants_s32/probe_half_general.py [--dtype float16] [--shapes 4096x4096x4096,...]
    (--picks: print auto's pick per call and exit; no GPU needed)

Layout and out32 rows are validated by tiled_matmul.measure (NaN-poisoned C, float64 reference);
batch and bias+gelu rows against cuBLAS's result per element (|C - ref| / (|A|·|B|) within twice
tm.tolerance, ref from float64 operands). CUDA events after warm-up, L2 flushed, medians of 3
alternating rounds.
"""
import argparse
import math
import os
import statistics
import sys

os.environ.setdefault("CUPY_TF32", "0")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s31"))

SHAPES = [(4096, 4096, 4096), (8192, 4096, 4096), (2048, 2048, 2048), (4096, 11008, 4096), (1024, 1024, 1024),
          (3000, 2000, 1536)]
FORMS = ("plain", "a@bT", "aT@b", "aT@bT", "out32", "batch8", "bias+gelu")


def view(x, col):
    """x's values, as a column-major view when `col` (the copy made here, outside any timing)."""
    import cupy

    return cupy.ascontiguousarray(x.T).T if col else x


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", default="float16", choices=("float16", "bfloat16"))
    ap.add_argument("--shapes", default="")
    ap.add_argument("--forms", default=",".join(FORMS))
    ap.add_argument("--picks", action="store_true")
    args = ap.parse_args()
    shapes = [tuple(int(v) for v in s.split("x")) for s in args.shapes.split(",")] if args.shapes else SHAPES
    forms = args.forms.split(",")
    if args.picks:
        for M, N, K in shapes:
            for form in forms:
                print(f"{M}x{N}x{K} {form}: {pick_of(M, N, K, args.dtype, form)}")
        return
    import cupy

    import tiled_matmul as tm
    from tiled_matmul.measure import L2Flusher, Row, cublas_row, make_inputs
    import _half

    from tiled_matmul import execute

    real = execute.ExLaunch.__init__
    ran: list = []

    def spy(self, compiled, *a, **kw):  # what the general path launched (printed as the pick)
        ran.append(compiled.name)
        real(self, compiled, *a, **kw)

    execute.ExLaunch.__init__ = spy
    flush = L2Flusher()
    logs: dict = {}
    print("| shape | form | auto pick | auto µs | cuBLAS µs | × cuBLAS |\n|---|---|---|---:|---:|---:|")
    for shape in shapes:
        M, N, K = shape
        (a, b, c), = make_inputs(shape, args.dtype, seed=1)
        for form in forms:
            ran.clear()
            pick = pick_of(M, N, K, args.dtype, form)
            if form in ("batch8", "bias+gelu") and args.dtype != "float16":
                # cupy.matmul's batched path and its elementwise kernels take no ml_dtypes bfloat16
                print(f"| {M}×{N}×{K} | {form} | {pick} | skipped: float16 only (CuPy) | | |")
                continue
            if form in ("plain", "a@bT", "aT@b", "aT@bT", "out32"):
                ac, bc = form in ("aT@b", "aT@bT"), form in ("a@bT", "aT@bT")
                sets = [(view(a, ac), view(b, bc), c if form != "out32" else cupy.empty((M, N), cupy.float32))]
                csets = [(sets[0][0], sets[0][1], c)]
                kw = {"out_dtype": cupy.float32} if form == "out32" else {}
                arow = Row("probe", "auto", lambda x, y, z, kw=kw: tm.matmul(x, y, out=z, **kw))
                res = _half.timed_rows({"auto": (arow, sets), "cublas": (cublas_row("probe", dtype=args.dtype), csets)}, flush)
            else:
                res = timed_custom(form, a, b, M, N, K, args.dtype, flush)
            if ran:
                pick = ran[0].replace("tm_", "", 1)
            au, ratio = res["auto"]
            cu = res["cublas"][0]
            if au is None:
                print(f"| {M}×{N}×{K} | {form} | {pick} | failed: {str(ratio)[:60]} | | |")
                continue
            logs.setdefault(form, []).append(ratio)
            print(f"| {M}×{N}×{K} | {form} | {pick} | {au:.1f} | {cu:.1f} | {ratio:.3f} |", flush=True)
        del a, b, c
        cupy.get_default_memory_pool().free_all_blocks()
    print()
    _half.geomeans(logs)


def pick_of(M, N, K, dtype, form):
    """The plain call's pick, or the cp.async rungs' (heuristic.plain_pick) for the others; a run
    prints the kernel the general path launched instead."""
    from tiled_matmul import heuristic

    name, params = heuristic.plain_pick(M, N, K, dtype, 132, "ieee") if form != "plain" else \
        heuristic.half_pick(M, N, K, dtype, 132)
    return f"{name} {params}" if params else name


def timed_custom(form, a, b, M, N, K, dtype, flush):
    """batch8 / bias+gelu: (label -> (median µs, median ratio)) like _half.timed_rows, validated
    against the float64 product per element first."""
    import cupy

    import tiled_matmul as tm
    from tiled_matmul.measure import cublas_compute_type, time_fn

    GELU = cupy.ElementwiseKernel("T y, T bias", "T z",
                                  "float v = (float)y + (float)bias; z = (T)(0.5f * v * (1.0f + erff(v * 0.70710678f)));",
                                  "probe_bias_gelu")
    if form == "batch8":
        A = cupy.stack([cupy.roll(a, i, axis=0) for i in range(8)])
        B = cupy.stack([cupy.roll(b, i, axis=1) for i in range(8)])
        out_t, out_c = cupy.empty((8, M, N), a.dtype), cupy.empty((8, M, N), a.dtype)
        fa = lambda: tm.matmul(A, B, out=out_t)
        fc = lambda: cupy.matmul(A, B, out=out_c)
        check = lambda: (A[3], B[3], out_t[3], None)
    else:
        bias = (cupy.arange(N, dtype=cupy.float32) / N - 0.5).astype(a.dtype)
        out_t, out_c = cupy.empty((M, N), a.dtype), cupy.empty((M, N), a.dtype)
        fa = lambda: tm.gemm(a, b, bias=bias, activation="gelu", out=out_t)
        fc = lambda: GELU(cupy.matmul(a, b), bias, out_c)
        check = lambda: (a, b, out_t, bias)
    ctx = cublas_compute_type("fp32", "float16" if dtype == "float16" else "float32")
    with ctx:
        out_t.fill(float("nan"))
        fa()
        fc()
        x, y, got, bias = check()
        from cupyx.scipy.special import erf

        from tiled_matmul.numerics import exact64  # (through the host for bfloat16)

        x64, y64 = exact64(x), exact64(y)
        ref = x64 @ y64
        scale = cupy.abs(x64) @ cupy.abs(y64)
        if bias is not None:
            v = ref + bias.astype(cupy.float64)
            ref = 0.5 * v * (1 + erf(v / math.sqrt(2)))
            scale = scale + 1.0
        err = float((cupy.abs(exact64(got) - ref) / (scale + 1e-30)).max())
        tol = 2 * tm.tolerance(got.dtype, K)
        if not (err <= tol) or bool(cupy.isnan(got).any()):
            return {"auto": (None, f"error {err:.3g} > {tol:.3g}"), "cublas": (None, "")}
        ta, tc = [], []
        for _ in range(3):
            ta.append(time_fn(lambda i: fa(), repeat=7, warmup=2, flush=flush).median_ms)
            tc.append(time_fn(lambda i: fc(), repeat=7, warmup=2, flush=flush).median_ms)
    return {"auto": (statistics.median(ta) * 1e3, statistics.median(c / t for c, t in zip(tc, ta))),
            "cublas": (statistics.median(tc) * 1e3, 1.0)}


if __name__ == "__main__":
    main()
