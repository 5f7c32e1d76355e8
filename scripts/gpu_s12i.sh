#!/usr/bin/env bash
# Twelfth session (H100): gemv_ax reading its lanes' rows of B straight through L1 (B_DIRECT: no
# staging, no barrier per step; the working tree, variants_s12/gemv_ax_bdirect.patch) against the
# staged loop, float32 and float64, auto and fixed configs, alternating rounds.
#   bash scripts/gpu_s12i.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
bash scripts/variants_s12/trees.sh scripts/variants_s12/gemv_ax_bdirect.patch
specs=(8192x8x8192@float32 8192x1x8192@float32 8192x8x8192 8192x1x8192 4096x8x16384@float32 16384x4x4096@float32
       1000x7x50000@float32 8193x5x8191@float32)
for p in nt=8,rows=4,unroll=1 nt=8,rows=2,unroll=1 nt=4,rows=4,unroll=1 nt=8,rows=4,unroll=2,min_blocks=1 \
         nt=8,rows=2,unroll=2,min_blocks=1 nt=16,rows=1,unroll=1,min_blocks=1; do
    specs+=("8192x8x8192@float32:gemv_ax:$p")
done
timeout 400 python3 scripts/variants_s12/compare.py /tmp/r base,new 3 "${specs[@]}" > "$OUT/compare.log" 2>&1
echo "== compare rc $?"
tail -17 "$OUT/compare.log"
