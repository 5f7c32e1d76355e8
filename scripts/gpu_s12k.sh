#!/usr/bin/env bash
# Twelfth session (H100): the row-major block order (group_m=1) on the C-store-bound float64 shapes
# (tiny K, 8192 x 8192 x 128) against groups of 8, fixed configs in alternating rounds; then a
# retune of those suite shapes with the three group_m=1 tiles in dmma's search space.
#   bash scripts/gpu_s12k.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
specs=()
for gm in 1 8; do
    specs+=("8192x8192x1:dmma:bm=64,bn=64,bk=8,wm=32,wn=32,stages=4,min_blocks=3,group_m=$gm"
            "16384x16384x16:dmma:bm=128,bn=128,bk=8,wm=64,wn=32,stages=4,group_m=$gm"
            "8192x8192x8:dmma:bm=128,bn=64,wm=64,wn=32,min_blocks=2,group_m=$gm"
            "8192x8192x128:dmma:bm=128,bn=64,wm=64,wn=32,min_blocks=2,group_m=$gm"
            "8192x8192x128:dmma:bm=64,bn=64,bk=16,wm=32,wn=16,stages=4,min_blocks=2,group_m=$gm"
            "6000x6000x500:dmma:bm=128,bn=64,wm=64,wn=32,min_blocks=2,group_m=$gm"
            "4096x4096x4096:dmma:bm=128,bn=128,wm=32,wn=64,group_m=$gm")
done
timeout 200 python3 scripts/variants_s12/compare.py - tree 3 "${specs[@]}" > "$OUT/compare.log" 2>&1
echo "== compare rc $?"
tail -15 "$OUT/compare.log"
RUNS=0 TUNE_TIMEOUT=300 bash scripts/gpu_retune.sh float64 dmma,dmma_split_k,register_blocked tiny \
    8192x8192x128 8192x8192x1 8192x8192x8 16384x16384x16
grep -E "^│ [0-9]" "$OUT/tune.log" | cut -c1-220
