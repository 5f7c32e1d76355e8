"""wgmma_tma's 2-CTA clusters (B shared by TMA multicast) against its default tile on 16-bit
outputs of several waves with a short K (5000x3000x1000 ran the default 128 x 256 tile at 0.68x
cuBLAS and the clustered one at 0.92 in probe_s18e.py mid): is that a class or one shape? One JSON
line per candidate (probe_sweep.run: checked, then CUDA events, L2 flushed, median of 7).

    PYTHONPATH=. python3 scripts/variants_s18/probe_c2.py OUT.jsonl [dtype]
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s17"))

from probe_sweep import run  # noqa: E402

from tiled_matmul.timing import L2Flusher  # noqa: E402

SHAPES = [(5000, 3000, 1000), (6000, 4000, 1000), (8192, 8192, 1024), (4096, 2048, 1000), (3000, 5000, 1000),
          (5120, 3072, 1024), (4000, 6000, 512), (7000, 2000, 800), (2500, 2500, 1000), (10000, 1000, 1000),
          (5000, 3000, 2000), (5000, 3000, 4000), (4992, 3072, 1024), (5000, 2944, 1024)]
CANDS = [("wgmma_tma", {}), ("wgmma_tma", dict(bm=128, bn=256, stages=3, cluster_m=2)),
         ("wgmma_tma", dict(bm=128, bn=192, stages=4, cluster_m=2)), ("wgmma_tma", dict(bm=128, bn=192, stages=4))]


def main() -> None:
    path = sys.argv[1]
    dt = sys.argv[2] if len(sys.argv) > 2 else "float16"
    flush = L2Flusher()
    with open(path, "w") as out:
        for shape in SHAPES:
            run(dt, shape, CANDS, flush, out)


if __name__ == "__main__":
    main()
