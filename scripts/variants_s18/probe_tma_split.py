"""wgmma_tma_split_k (rung 23) against auto's pick and cuBLAS (eighteenth session): every split
count on its 128 x 128 and 128 x 64 tiles, on 16-bit decode-like, long-K and small shapes. Each
candidate is checked once (tm.check), then timed: CUDA events, L2 flushed, median of 7
(probe_sweep.run); one JSON line each, and a summary table per shape at the end.

    PYTHONPATH=. python3 scripts/variants_s18/probe_tma_split.py OUT.jsonl [dtype] [quick]
"""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s17"))

from probe_sweep import run  # noqa: E402

from tiled_matmul.timing import L2Flusher  # noqa: E402

SHAPES = [(8, 8192, 8192), (16, 4096, 4096), (16, 8192, 8192), (32, 4096, 4096), (32, 8192, 4096),
          (64, 8192, 8192), (64, 4096, 11008), (128, 4096, 4096), (64, 64, 65536), (256, 256, 131072),
          (32, 1024, 32768), (1024, 32, 32768), (128, 128, 16384), (8192, 32, 8192),
          (256, 256, 256), (512, 512, 512), (640, 640, 640), (1024, 1024, 1024), (5000, 3000, 1000),
          (9, 14458, 2306), (94, 50, 6180), (245, 80, 7522), (22, 185, 3899), (46, 1100, 2429)]
SPLITS = (2, 4, 8, 16, 32, 64, 128)
CANDS = ([("wgmma_tma_split_k", dict(split_k=s)) for s in SPLITS]
         + [("wgmma_tma_split_k", dict(bn=64, stages=8, split_k=s)) for s in SPLITS])


def main() -> None:
    path = sys.argv[1]
    dt = sys.argv[2] if len(sys.argv) > 2 else "float16"
    shapes = SHAPES[:6] if "quick" in sys.argv else SHAPES
    flush = L2Flusher()
    with open(path, "w") as out:
        for shape in shapes:
            run(dt, shape, CANDS, flush, out)
    rows: dict = {}
    for line in open(path):
        r = json.loads(line)
        rows.setdefault(tuple(r["shape"]), []).append(r)
    print(f"{'shape':>18} {'cuBLAS':>8} {'auto':>8} {'best split':>10}  x cuBLAS (auto -> split)  best config")
    for shape, rs in rows.items():
        cub = next(r["ms"] for r in rs if r["strategy"] == "cublas")
        auto = next((r.get("ms") for r in rs if r["strategy"] == "auto"), None)
        split = [r for r in rs if r["strategy"] == "wgmma_tma_split_k" and "ms" in r]
        wrong = [r for r in rs if r.get("error") == "WRONG"]
        best = min(split, key=lambda r: r["ms"]) if split else None
        bt = best["ms"] if best else float("nan")
        print(f"{'x'.join(map(str, shape)):>18} {cub * 1e3:8.1f} {auto * 1e3 if auto else float('nan'):8.1f} {bt * 1e3:10.1f}"
              f"  {cub / auto if auto else float('nan'):5.2f} -> {cub / bt:5.2f}  {best['params'] if best else ''}"
              f"{'  WRONG: ' + str(len(wrong)) if wrong else ''}")


if __name__ == "__main__":
    main()
