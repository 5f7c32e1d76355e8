#!/bin/bash
# eighteenth session, last: the two rules mended after the seed-15 sweep (gemv_ax_mma's wide A·x
# from K = GEMV_MIN_K, the TMA split from M = TMA_SPLIT_MIN_M) against the picks they replace, with
# cuBLAS (probe_tma_split_picks.compare), and the split rungs' auto tests.
#   bash scripts/gpu_s18i.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 120 python3 - > "$OUT/mended.txt" 2>&1 <<'PY'
import sys
sys.path.insert(0, "scripts/variants_s18")
from probe_tma_split_picks import compare
from tiled_matmul import heuristic as h
from tiled_matmul.timing import L2Flusher
OLD = {(16068, 50, 8): ("gemv_ax_mma", {"kg": 4, "min_blocks": 4}), (9, 179, 9579): ("wgmma_tma_split_k", {"split_k": 32}),
       (9, 3000, 40000): ("wgmma_tma_split_k", {"split_k": 4}), (8, 8192, 8192): ("wgmma_tma_split_k", {"split_k": 2}),
       (12, 5000, 6000): ("wgmma_tma_split_k", {"split_k": 2}), (15, 2000, 20000): ("wgmma_tma_split_k", {"split_k": 8})}
flush = L2Flusher()
for dt in ("float16", "bfloat16"):
    compare(dt, list(OLD), lambda M, N, K, d: OLD[(M, N, K)], lambda M, N, K, d: h.half_pick(M, N, K, d, 132), flush)
PY
echo "mended rc $?"; cat "$OUT/mended.txt" | cut -c1-160
timeout 200 python3 -m pytest -q -m gpu "tests/test_gpu_wgmma_tma_split_k.py::test_auto_takes_it_for_small_outputs_with_long_k" \
    "tests/test_gpu_mma_half_split_k.py::test_auto_takes_it_for_small_outputs_with_long_k" \
    "tests/test_gpu_gemv_ax_mma.py::test_auto_takes_it_for_plain_a_x_with_a_few_columns" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -2 "$OUT/tests.log"
