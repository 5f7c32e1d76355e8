"""Regenerate the shipped H100 tuning database, tiled_matmul/data/tuned_h100.json.

Runs the autotuner over the public shape suite with every tunable strategy of the registry and
writes the best config of each shape's bucket (see tiled_matmul.tunedb for the bucket rule). Run it
on an H100 SXM ("NVIDIA H100 80GB HBM3", sm_90) after changing a template or a search space:

    PYTHONPATH=. python3 scripts/tune_suite.py                       # a few minutes on an H100
    PYTHONPATH=. python3 scripts/tune_suite.py --out /tmp/t.json --json /tmp/all.json --repeat 10

The file is rebuilt from scratch (written next to --out and moved over it at the end, so a failed run
leaves the old one); --merge keeps the entries already there. Prints the summary table and a
markdown version of it for the README.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import tiled_matmul as tm  # noqa: E402
from tiled_matmul import tunedb as tdb  # noqa: E402
from tiled_matmul import tuner as tune_mod  # noqa: E402
from tiled_matmul.measure import shape_arg  # noqa: E402
from tiled_matmul.suite import SUITE_DTYPES, suite_shapes  # noqa: E402

#: The public shape suite (M, N, K), every class of tiled_matmul.suite.
SUITE = [shape for _, shape in suite_shapes()]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=str(ROOT / "tiled_matmul" / "data" / "tuned_h100.json"))
    p.add_argument("--sizes", nargs="+", type=shape_arg, default=SUITE, metavar="SIZE",
                   help="shapes (default: the public suite)")
    p.add_argument("--dtype", nargs="+", default=list(SUITE_DTYPES), choices=list(SUITE_DTYPES))
    p.add_argument("--strategies", default=None, help="comma-separated (default: every tunable strategy)")
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--budget-ms", type=float, default=200.0)
    p.add_argument("--merge", action="store_true", help="keep the entries already in --out")
    p.add_argument("--json", default=None, help="also write every result with all candidates here")
    p.add_argument("--quiet", "-q", action="store_true")
    args = p.parse_args(argv)

    if not tm.gpu_available():
        print("tune_suite: no CUDA device (cupy.is_available() is False)", file=sys.stderr)
        return 2
    ident = tdb.device_id()
    if ident.name != tdb.H100_NAME or ident.cc != "90":
        print(f"tune_suite: warning: this is {ident.name} (sm_{ident.cc}), not {tdb.H100_NAME}; "
              f"its entries are keyed by this device and `auto` on an H100 will not use them", file=sys.stderr)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    work = out.with_name(out.name + ".new")
    if work.exists():
        work.unlink()
    if args.merge and out.exists():
        shutil.copyfile(out, work)
    strategies = args.strategies.split(",") if args.strategies else None

    t0 = time.perf_counter()
    results = []
    for dt in args.dtype:
        for M, N, K in args.sizes:
            r = tm.tune(M, N, K, dt, strategies, repeat=args.repeat, warmup=args.warmup,
                        budget_ms=args.budget_ms, save=True, db_path=work, progress=not args.quiet, seed=0)
            results.append(r)
            b = r.best
            print(f"{M}x{N}x{K} {dt}: {b.label() if b else 'NO VALID CANDIDATE'} "
                  f"{b.median_ms if b else float('nan'):.3f} ms, cuBLAS {r.cublas_ms or float('nan'):.3f} ms "
                  f"({r.seconds:.1f} s)", flush=True)
    if not work.exists():
        print("tune_suite: nothing was saved", file=sys.stderr)
        return 1
    os.replace(work, out)
    for extra in (work.with_name(work.name + ".lock"),):
        if extra.exists():
            extra.unlink()
    tune_mod.print_summary(results)
    print(markdown(results))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump([r.as_dict() for r in results], f, indent=1)
    print(f"wrote {out} ({len(results)} shapes, {time.perf_counter() - t0:.0f} s)")
    return 0 if all(r.best is not None for r in results) else 1


def markdown(results) -> str:
    lines = ["| shape (M×N×K) | bucket | strategy | params | ms | TFLOP/s | cuBLAS ms | ×cuBLAS |",
             "|---|---|---|---|---:|---:|---:|---:|"]
    for r in results:
        b = r.best
        if b is None:
            lines.append(f"| {'×'.join(map(str, r.shape))} | {r.bucket} | — | — | | | | |")
            continue
        params = ", ".join(f"{k}={v}" for k, v in b.params.items())
        lines.append(f"| {'×'.join(map(str, r.shape))} | `{r.bucket}` | {b.strategy} | {params} | "
                     f"{b.median_ms:.3f} | {b.tflops:.1f} | {r.cublas_ms or float('nan'):.3f} | "
                     f"{r.vs_cublas or float('nan'):.2f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
