"""wgmma_tma's configs on 16-bit products read in place (a @ b, a @ b.T, a.T @ b, a.T @ b.T)
against auto's pick and cuBLAS on the same views, in one run: whether auto's tile for the plain
product is also the tile for the transposed forms.

    PYTHONPATH=. python3 scripts/variants_s33/sweep_layouts.py [--dtype float16] [--shapes 1024x1024x1024,...]

Each row validated first (tiled_matmul.measure: NaN-poisoned C, float64 reference); CUDA events
after warm-up, L2 flushed, medians of 3 alternating rounds; cells are x cuBLAS.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s31"))

SHAPES = [(1024, 1024, 1024), (2048, 2048, 2048), (3000, 2000, 1536), (4096, 4096, 4096)]
FORMS = ("plain", "a@bT", "aT@b", "aT@bT")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", default="float16", choices=("float16", "bfloat16"))
    ap.add_argument("--shapes", default="")
    ap.add_argument("--forms", default=",".join(FORMS))
    args = ap.parse_args()
    shapes = [tuple(int(v) for v in s.split("x")) for s in args.shapes.split(",")] if args.shapes else SHAPES
    import cupy

    import tiled_matmul as tm
    from tiled_matmul import registry
    from tiled_matmul.measure import L2Flusher, Row, cublas_row, make_inputs
    import _half

    entry = registry.get("wgmma_tma")
    cfgs = [entry.default] + [c for c in entry.configs if c != entry.default]
    labels = [f"{c.bm}x{c.bn}s{c.stages}c{c.cluster_m}" for c in cfgs]
    flush = L2Flusher()
    logs: dict = {}
    print("| shape | form | auto | " + " | ".join(labels) + " |")
    print("|---|---|---:|" + "---:|" * len(labels))
    for M, N, K in shapes:
        (a, b, c), = make_inputs((M, N, K), args.dtype, seed=1)
        for form in args.forms.split(","):
            ac, bc = form in ("aT@b", "aT@bT"), form in ("a@bT", "aT@bT")
            x = cupy.ascontiguousarray(a.T).T if ac else a
            y = cupy.ascontiguousarray(b.T).T if bc else b
            sets = [(x, y, c)]
            rows = {"cublas": (cublas_row("probe", dtype=args.dtype), sets),
                    "auto": (Row("probe", "auto", lambda p, q, r: tm.matmul(p, q, out=r)), sets)}
            for lab, cfg in zip(labels, cfgs):
                rows[lab] = (_half.call_row("wgmma_tma", {"bm": cfg.bm, "bn": cfg.bn, "stages": cfg.stages,
                                                          "cluster_m": cfg.cluster_m}), sets)
            res = _half.timed_rows(rows, flush)
            cells = _half.cells(res, ["auto"] + labels, logs, key=lambda k, f=form: (f, k))
            print(f"| {M}×{N}×{K} | {form} | " + " | ".join(cells) + " |", flush=True)
        del a, b, c, x, y
        cupy.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
