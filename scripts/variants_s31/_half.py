"""What the thirty-first session's 16-bit probes share: rows timed through tiled_matmul.measure
(each validated first on its own input sets: NaN-poisoned C, float64 reference), in alternating
rounds beside cuBLAS (float16 with FP32 compute; bfloat16 through measure.bf16_cublas's library)."""
import math
import statistics

PLAN = dict(repeat=7, budget_s=1.0)


def timed_rows(rows: dict, flush, rounds: int = 3) -> dict:
    """rows: label -> (measure.Row, sets), "cublas" among them. Validates each, times them in
    `rounds` alternating rounds; returns label -> (median µs, median of the rounds' cuBLAS/row
    ratios), a row that failed or could not run as (None, message)."""
    from tiled_matmul.measure import time_validated, validate

    val = {k: validate(r, s) for k, (r, s) in rows.items()}
    times = {k: [] for k in rows if val[k].rejected is None}
    for _ in range(rounds):
        for k in times:
            times[k].append(time_validated(rows[k][0], val[k], rows[k][1], flush, **PLAN))
    out = {k: (None, val[k].rejected.message) for k in rows if val[k].rejected is not None}
    cub = times.get("cublas")
    for k, ts in times.items():
        if not all(t.ok for t in ts):
            out[k] = (None, ts[0].message)
            continue
        us = statistics.median(t.median_ms for t in ts) * 1e3
        ratio = statistics.median(c.median_ms / t.median_ms for c, t in zip(cub, ts)) if cub else float("nan")
        out[k] = (us, ratio)
    return out


def against_old_rule(M: int, N: int, K: int, dtype: str, sets, old_rule) -> tuple:
    """(auto's pick, its pick under `old_rule`, rows) for a probe of a rule change: `old_rule` is
    a context manager that puts the rule back as it was (and clears auto's cache both ways); rows
    are timed_rows' cuBLAS, auto, and auto called under `old_rule` ("auto old"), on `sets`."""
    import tiled_matmul as tm
    from tiled_matmul.measure import Row, auto_row, cublas_row

    pick = tm.explain("auto", (M, N, K), dtype=dtype)
    with old_rule():
        old = tm.explain("auto", (M, N, K), dtype=dtype)
    auto = auto_row("probe")
    return pick, old, {"cublas": (cublas_row("probe", dtype=dtype), sets), "auto": (auto, sets),
                       "auto old": (Row("probe", "auto old", auto.call, context=old_rule), sets)}


def cublas_cell(res: dict) -> str:
    """timed_rows' cuBLAS median as a table cell (µs), or "failed"."""
    return f"{res['cublas'][0]:.1f}" if res["cublas"][0] is not None else "failed"


def call_row(name: str, params: dict):
    """A measure.Row calling tm.matmul(a, b, out=c, strategy=name, **params)."""
    import tiled_matmul as tm
    from tiled_matmul.measure import Row

    return Row("probe", name, lambda a, b, c: tm.matmul(a, b, out=c, strategy=name, **params))


def cells(res: dict, labels, logs: dict, key=lambda label: label) -> list:
    """timed_rows' results for `labels` as table cells "µs (× cuBLAS)", each ratio appended to
    logs[key(label)]."""
    out = []
    for k in labels:
        us, r = res[k]
        out.append(f"{us:.1f} ({r:.2f})" if us is not None else f"failed: {str(r)[:40]}")
        if us is not None:
            logs.setdefault(key(k), []).append(r)
    return out


def geomeans(logs: dict) -> None:
    """Print each label's geometric mean (and lowest) of the ratios in logs[label]."""
    for k, v in logs.items():
        if v:
            print(f"{k}: geometric mean {math.exp(sum(map(math.log, v)) / len(v)):.3f}× cuBLAS, lowest {min(v):.2f}"
                  f" ({len(v)} shapes)")


def config_probe(shapes, variants: dict) -> None:
    """The command line of a probe that times named configs against auto and cuBLAS on 16-bit
    shapes: ``[--dtype float16|bfloat16] [--compile-only CACHE_DIR]``; a table of µs (× cuBLAS)
    per shape, every row validated first (timed_rows), then each column's geometric mean."""
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", default="float16", choices=("float16", "bfloat16"))
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    args = ap.parse_args()
    if args.compile_only:
        from _probe import precompile_shapes

        print(precompile_shapes(args.compile_only, shapes, lambda M, N, K: variants, args.dtype), "kernels")
        return
    from tiled_matmul.dispatch import choose
    from tiled_matmul.measure import L2Flusher, auto_row, cublas_row, make_inputs

    flush = L2Flusher()
    logs: dict = {}
    labels = ["auto", *variants]
    print(f"{args.dtype}: µs (× cuBLAS)")
    print(f"| shape | auto's pick | cuBLAS µs | {' | '.join(labels)} |")
    print("|---|---|---:|" + "---:|" * len(labels))
    for M, N, K in shapes:
        sets = make_inputs((M, N, K), args.dtype)
        rows = {"cublas": (cublas_row("probe", dtype=args.dtype), sets), "auto": (auto_row("probe"), sets)}
        rows.update({k: (call_row(n, p), sets) for k, (n, p) in variants.items()})
        res = timed_rows(rows, flush)
        pick = choose(M, N, K, args.dtype)
        cub = f"{res['cublas'][0]:.1f}" if res["cublas"][0] is not None else "failed"
        print(f"| {M}×{N}×{K} | {pick.strategy} {dict(pick.params)} | {cub} | "
              f"{' | '.join(cells(res, labels, logs))} |", flush=True)
    print()
    geomeans(logs)
