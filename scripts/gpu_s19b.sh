#!/bin/bash
# nineteenth session: L2 bulk prefetch in gemv_xb and gemv_ax (the templates' L2_AHEAD), distances
# 0 (shipped), 2, 4, 8 and 16 steps, on the memory-bound rows, in one process with cuBLAS and a copy.
#   bash scripts/gpu_s19b.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
bash scripts/variants_s19/l2_trees.sh 2 4 8 16 > /dev/null
SPECS="8x8192x8192@float32 1x4096x16384@float32 8192x8x8192@float32 1x8192x8192@float32 2x8192x8192@float32
8192x1x8192@float32 4x8192x8192@float32 8192x4x8192@float32 1x8192x8192@float64 8192x1x8192@float64
1x4096x16384@float64 1x8192x8192@float16 8192x1x8192@float16 1x4096x16384@bfloat16 3x3000x7000@float32
6x20000x3000@float32 5000x6x5000@float32"
timeout 500 python3 scripts/variants_s19/compare_l2.py /tmp/r base,pf2,pf4,pf8,pf16 5 $SPECS 2>&1 | tee "$OUT/l2_prefetch.txt" | tail -22
