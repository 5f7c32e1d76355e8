#!/bin/bash
# eighteenth session: the streamed operand's loads with an L2 256-byte prefetch hint
# (variants_s18/stream_l2_256b.patch, applied in the tree sent) against the loads without it, on the
# memory-bound rows, alternating in one process with cuBLAS (variants_s12/compare.py, 7 rounds).
#   bash scripts/gpu_s18k.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
bash scripts/variants_s12/trees.sh scripts/variants_s18/stream_l2_256b.patch
timeout 400 python3 scripts/variants_s12/compare.py /tmp/r base,new 7 8192x8x8192@float32 8x8192x8192@float32 \
    1x4096x16384@float32 1x8192x8192@float32 8192x1x8192@float32 2x8192x8192@float32 8192x8x8192 1x8192x8192 \
    1x8192x8192@float16 2x8192x8192@float16 8192x1x8192@float16 > "$OUT/l2hint.txt" 2>&1
echo "compare rc $?"; tail -14 "$OUT/l2hint.txt"
