"""wgmma_split_k against cuBLAS (FP32, TF32 off) where it is meant to win, in one run.

    PYTHONPATH=. python3 benchmarks/wgmma_split_k.py [--shapes 64x64x65536,512] [--out DIR]

Shapes (default): long K with a small C (64x64x65536, 256x256x131072, 32x1024x32768,
1024x32x32768) and small cubes (384^3 to 768^3). At each: cuBLAS (``cupy.matmul``, TF32 off),
`auto`, the FFMA rungs `auto` used there before (split_k as the heuristic sizes it without tensor
cores; warp_tiled on 64 x 64 tiles), unsplit wgmma on 64 x 64 tiles, and every config of
wgmma_split_k plus the heuristic's pick (marked *). Every row goes through tiled_matmul.measure:
validated against a float64 reference with a NaN-poisoned output, and only then timed (CUDA
events, L2 flushed before each repeat, median; input sets rotated where one fits in L2). Prints
a table with each row's ratio to cuBLAS and its relative error next to cuBLAS's, then per shape
the best wgmma_split_k config and the pick's ratio; DIR/wgmma_split_k.json holds every record.
"""

from __future__ import annotations

import argparse
import json
import os

os.environ.setdefault("CUPY_TF32", "0")

import cupy as cp  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul.heuristic import recommend  # noqa: E402
from tiled_matmul.measure import (L2Flusher, auto_row, cublas_row, make_inputs, n_input_sets,  # noqa: E402
                                  parse_shapes, strategy_row, time_validated, validate)

STUDY = "wgmma_split_k"
NAME = "wgmma_split_k"
SHAPES = [(64, 64, 65536), (256, 256, 131072), (32, 1024, 32768), (1024, 32, 32768),
          (384, 384, 384), (512, 512, 512), (640, 640, 640), (768, 768, 768)]
PLAN = dict(repeat=20, budget_s=1.0)
WARP_TILED_SMALL = dict(bm=64, bn=64, bk=16, wm=32, wn=32, tm=4, tn=8, stages=3, group_m=8, min_blocks=4)
WGMMA_NARROW = dict(bm=64, bn=64, stages=4, min_blocks=2)


def candidates(M: int, N: int, K: int, sms: int):
    """(label, row) for every row measured at one shape, the heuristic's pick labelled with *."""
    pick, pick_params = recommend(M, N, K, sms=sms)
    pick_cfg = tm.STRATEGIES[pick].make_config(**pick_params)
    ffma, ffma_params = recommend(M, N, K, sms=sms, precision="ieee")  # the FFMA rungs' pick
    rows = [("cuBLAS", cublas_row(STUDY)), ("auto", auto_row(STUDY))]
    refs = [(n, tm.STRATEGIES[n].make_config(**p))
            for n, p in [(ffma, ffma_params), ("warp_tiled", WARP_TILED_SMALL), ("wgmma", WGMMA_NARROW)]]
    for name, cfg in dict.fromkeys(refs):  # the FFMA pick may be warp_tiled's row
        rows.append((f"{name} {cfg.tag()}", strategy_row(STUDY, name, cfg)))
    configs = list(tm.STRATEGIES[NAME].configs)
    if pick == NAME and pick_cfg not in configs:
        configs.append(pick_cfg)
    for cfg in configs:
        mark = "*" if (pick == NAME and cfg == pick_cfg) else ""
        rows.append((f"{NAME} {cfg.tag()}{mark}", strategy_row(STUDY, NAME, cfg)))
    return rows, (pick, pick_cfg)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shapes", default=None, help="e.g. 64x64x65536,512 (default: the shapes above)")
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    args = ap.parse_args()
    shapes = parse_shapes(args.shapes) if args.shapes else SHAPES
    assert os.environ["CUPY_TF32"] == "0"
    limits = tm.device_limits()
    if not tm.STRATEGIES[NAME].runs_on():
        raise SystemExit(f"{NAME} needs a GPU that runs sm_90a code; this one is {limits.name}")
    print(f"GPU: {limits.name} ({limits.sm_count} SMs); cupy {cp.__version__}; CUPY_TF32={os.environ['CUPY_TF32']}")
    flush = L2Flusher(limits.l2_bytes)
    table, summary, records = [], [], []
    for M, N, K in shapes:
        set_bytes = 4 * (M * K + K * N + M * N)
        sets = make_inputs((M, N, K), "float32", n_input_sets(set_bytes, limits.l2_bytes))
        rows, (pick, pick_cfg) = candidates(M, N, K, limits.sm_count)
        timed = []
        for label, row in rows:
            v = validate(row, sets)
            rec = time_validated(row, v, sets, flush, **PLAN)
            err = "-" if v.report is None else f"{v.report.rel_err:.1e}/{v.report.cublas_rel_err:.1e}"
            timed.append((label, rec, err))
            records.append(dict(rec.as_dict(), label=label, err=err))
        t_ref = timed[0][1].median_ms if timed[0][1].ok else float("nan")
        for label, rec, err in timed:
            if rec.ok:
                table.append(f"{M}x{N}x{K:<7} {rec.median_ms:9.4f} {rec.tflops:7.2f} {t_ref / rec.median_ms:6.3f} "
                             f"{err:>15}  {label}")
            else:
                table.append(f"{M}x{N}x{K:<7} {rec.status.upper():>9} {rec.message}  {label}")
        ours = [(t_ref / rec.median_ms, label) for label, rec, _ in timed if label.startswith(NAME) and rec.ok]
        picked = [t_ref / rec.median_ms for label, rec, _ in timed if label.endswith("*") and rec.ok]
        auto = [t_ref / rec.median_ms for label, rec, _ in timed if label == "auto" and rec.ok]
        best = max(ours) if ours else (float("nan"), "-")
        summary.append(f"{M}x{N}x{K:<7} best {best[0]:.3f} ({best[1]}); pick "
                       f"{f'{picked[0]:.3f}' if picked else f'{pick} {pick_cfg.tag()} (not {NAME})'}; "
                       f"auto {f'{auto[0]:.3f}' if auto else '-'}")
        del sets
        cp.get_default_memory_pool().free_all_blocks()
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "wgmma_split_k.json"), "w") as f:
        json.dump(records, f, indent=1)
    print(f"{'shape':>20} {'ms':>9} {'TFLOP/s':>7} {'xcuBLAS':>6} {'relerr/cuBLAS':>15}  row (* = heuristic pick)")
    print("\n".join(table))
    print("\nper shape, x cuBLAS: the best wgmma_split_k config, the heuristic's pick, auto")
    print("\n".join(summary))


if __name__ == "__main__":
    main()
