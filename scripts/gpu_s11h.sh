#!/usr/bin/env bash
# Eleventh session (H100): dmma with each K step's copies issued after its last fragment reads
# (kk == BK - 8) instead of its first (scripts/variants_s11/dmma_late_copies.patch), against the
# template as it is: auto on aligned float64 shapes in 5 alternating rounds (bits compared), then
# ncu's fixed-clock kernel time at 4096^3, twice each; and group_m 4 / 16 against 8 at 4096^3.
#   bash scripts/gpu_s11h.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
bash scripts/variant_vs_base.sh late scripts/variants_s11/dmma_late_copies.patch
timeout 120 python3 - <<'PY' 2>&1 | tee "$OUT/group_m.log"
import statistics, cupy, numpy as np, tiled_matmul as tm
from tiled_matmul.timing import L2Flusher, time_fn
flush = L2Flusher(); rs = np.random.default_rng(1)
a = cupy.asarray(rs.uniform(-1, 1, (4096, 4096))); b = cupy.asarray(rs.uniform(-1, 1, (4096, 4096)))
P = dict(bm=128, bn=64, bk=16, wm=64, wn=32, stages=3, min_blocks=2)
res = {g: [] for g in (4, 8, 16)}
for r in range(4):
    for g in res:
        res[g].append(time_fn(lambda i, g=g: tm.matmul(a, b, strategy="dmma", group_m=g, **P), repeat=15, warmup=2, flush=flush).median_ms)
print("4096^3 dmma 128x64x16 by group_m (ms, median of 4 rounds):", {g: round(statistics.median(v), 4) for g, v in res.items()})
PY
