#!/usr/bin/env python3
"""A compact markdown summary of one GPU run's JSON outputs. Measures nothing; needs no GPU.

    python3 scripts/summarize_run.py DIR [--date YYYY-MM-DD] > DIR/summary.md

Reads whichever of these DIR holds and prints one table for each:
- suite.json        (scripts/tune_suite.py --json): the tuned pick per shape of the public suite;
- ragged.json       (benchmarks/ragged_auto.py --json): `auto` on ragged shapes;
- fast_kernels.json (benchmarks/fast_kernels.py --out DIR): every config of the strategies it
  timed, and the host overhead of cached kernels at 64³.
Each row gives the shape, strategy and config, ms, TFLOP/s and × cuBLAS (cuBLAS timed in the same
run). `scripts/gpu_suite.sh` runs it last; benchmarks/results/<gpu>/summary.md is its output.
"""

from __future__ import annotations

import argparse
import ast
import datetime
import json
import math
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def shape_str(shape) -> str:
    M, N, K = shape
    return f"{M}³" if M == N == K else f"{M}×{N}×{K}"


def tflops(shape, ms: float) -> float:
    M, N, K = shape
    return 2 * M * N * K / (ms * 1e-3) / 1e12


def geomean(xs) -> float:
    xs = list(xs)
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def config_str(strategy: str, params: dict) -> str:
    """`k=v` pairs of the full config: a pick that names only some parameters (the heuristic's)
    gets the strategy's defaults filled in, where the registry can say what they are."""
    try:
        import tiled_matmul as tm

        params = tm.STRATEGIES[strategy].make_config(**params).params()
    except Exception:  # not importable, or a strategy/parameter this checkout does not know
        if not params:
            return "default"
    return " ".join(f"{k}={v}" for k, v in params.items())


def overhead_label(label: str) -> str:
    """fast_kernels.json's keys: "cupy", a strategy name, or a name followed by its params dict."""
    if label == "cupy":
        return "`cupy.matmul`"
    name, brace, rest = label.partition("{")
    if not brace:
        return name
    try:
        params = ast.literal_eval(brace + rest)
    except (ValueError, SyntaxError):
        return label
    return f"{name} " + " ".join(f"{k}={v}" for k, v in params.items())


def suite_table(rows: list[dict]) -> list[str]:
    out = ["## Public shape suite: the tuned pick per shape",
           "",
           "`PYTHONPATH=. python3 scripts/tune_suite.py --quiet --out $OUT/tuned_h100.json --json $OUT/suite.json`: "
           "every candidate validated against float64, then timed (CUDA events, L2 flushed, median).",
           "",
           "| shape | strategy | config | ms | TFLOP/s | cuBLAS ms | × cuBLAS | candidates (ok / tried) |",
           "|---|---|---|---:|---:|---:|---:|---:|"]
    ratios = []
    for r in rows:
        best = r.get("best") or {}
        n_ok = Counter(c.get("status") for c in r.get("candidates", []))["ok"]
        n_all = len(r.get("candidates", []))
        if not best or best.get("median_ms") is None:
            out.append(f"| {shape_str(r['shape'])} | no valid candidate | | | | | | {n_ok} / {n_all} |")
            continue
        ms, cublas = best["median_ms"], r.get("cublas_ms")
        ratio = cublas / ms if cublas else None
        if ratio:
            ratios.append(ratio)
        vs = f"{cublas:.3f} | {ratio:.2f}" if ratio else " | "
        out.append(f"| {shape_str(r['shape'])} | {best['strategy']} | {config_str(best['strategy'], best['params'])} "
                   f"| {ms:.3f} | {tflops(r['shape'], ms):.1f} | {vs} | {n_ok} / {n_all} |")
    if ratios:
        out += ["", f"Geometric mean × cuBLAS: **{geomean(ratios):.2f}** over {len(ratios)} shapes "
                    f"(lowest {min(ratios):.2f}, highest {max(ratios):.2f})."]
    return out


def ragged_table(rows: list[dict]) -> list[str]:
    out = ["## `auto` on ragged shapes",
           "",
           "`PYTHONPATH=. python3 benchmarks/ragged_auto.py --json $OUT/ragged.json`: no dimension a multiple of 4.",
           "",
           "| shape | auto's pick | from | ms | TFLOP/s | cuBLAS ms | × cuBLAS | rel. error ours / cuBLAS | check |",
           "|---|---|---|---:|---:|---:|---:|---|---|"]
    for r in rows:
        pick = f"{r['strategy']} {config_str(r['strategy'], r.get('params') or {})}"
        out.append(f"| {shape_str(r['shape'])} | {pick} | {r.get('source', '')} | {r['auto_ms']:.3f} "
                   f"| {tflops(r['shape'], r['auto_ms']):.1f} | {r['cublas_ms']:.3f} | {r['ratio']:.2f} "
                   f"| {r['rel_err']:.1e} / {r['cublas_rel_err']:.1e} | {'passed' if r.get('passed') else '**FAILED**'} |")
    ratios = [r["ratio"] for r in rows]
    failed = sum(not r.get("passed") for r in rows)
    out += ["", f"Geometric mean × cuBLAS: **{geomean(ratios):.2f}**, lowest {min(ratios):.2f}; "
                f"{failed} failed checks."]
    return out


def fast_kernels_tables(doc: dict) -> list[str]:
    out = ["## Every config of the timed strategies",
           "",
           "`PYTHONPATH=. python3 benchmarks/fast_kernels.py --out $OUT --strategies ... --shapes ...`: "
           "every config checked first (ragged, unaligned, misaligned, K=0, Inf), then timed. "
           "`*` marks the heuristic's pick for the shape.",
           "",
           f"Correctness checks: **{len(doc.get('failures', []))} failures**.",
           "",
           "| shape | strategy | config | ms | TFLOP/s | × cuBLAS | rel. error ours / cuBLAS |",
           "|---|---|---|---:|---:|---:|---|"]
    for t in doc.get("timings", []):
        out.append(f"| {shape_str(t['shape'])} | {t['strategy']} | {t['config']} | {t['ms']:.3f} "
                   f"| {t['tflops']:.1f} | {t['x_cublas']:.2f} | {t.get('err', '').replace('/', ' / ')} |")
    overhead = doc.get("overhead_us") or {}
    if overhead:
        out += ["",
                "Host overhead per call at 64³ (2000 calls, host clock) and the kernel's own GPU time:",
                "",
                "| kernel | `kernel()` µs | `matmul()` µs | GPU µs per launch |",
                "|---|---:|---:|---:|"]
        for label, vals in overhead.items():
            out.append(f"| {overhead_label(label)} | " + " | ".join(f"{v:.1f}" for v in vals) + " |")
    return out


def summarize(run_dir: Path, date: str) -> str:
    parts: list[list[str]] = []
    device = None
    suite = run_dir / "suite.json"
    if suite.exists():
        rows = json.loads(suite.read_text())
        device = next((r.get("device") for r in rows if r.get("device")), None)
        parts.append(suite_table(rows))
    ragged = run_dir / "ragged.json"
    if ragged.exists():
        parts.append(ragged_table(json.loads(ragged.read_text())))
    fast = run_dir / "fast_kernels.json"
    if fast.exists():
        parts.append(fast_kernels_tables(json.loads(fast.read_text())))
    if not parts:
        raise SystemExit(f"summarize_run: none of suite.json, ragged.json, fast_kernels.json in {run_dir}")
    head = [f"# Run summary: {device or 'GPU'}, {date}",
            "",
            "float32; cuBLAS is `cupy.matmul` with TF32 off (`CUPY_TF32=0`), timed in the same run; "
            "medians of CUDA-event timings with L2 flushed. Written by `scripts/summarize_run.py` from "
            "the run's JSON outputs. TFLOP/s = 2·M·N·K / time."]
    lines = head
    for p in parts:
        lines += [""] + p
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dir", type=Path, help="the run's output folder ($OUT of scripts/gpu_suite.sh)")
    p.add_argument("--date", default=datetime.date.today().isoformat(), help="date of the run (default: today)")
    args = p.parse_args(argv)
    sys.stdout.write(summarize(args.dir, args.date))
    return 0


if __name__ == "__main__":
    sys.exit(main())
