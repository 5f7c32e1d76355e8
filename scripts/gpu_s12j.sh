#!/usr/bin/env bash
# Twelfth session (H100): the block order's group size (group_m, rows of tiles per L2 group) of
# dmma's 128 x 64 tile, fixed at 8 in the search space, on the float64 shapes that tile serves.
#   bash scripts/gpu_s12j.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
specs=()
for s in 5000x3000x1000 8192x8192x128 4096x4096x4096 6000x6000x500; do
    for gm in 1 2 4 8 16 32; do
        specs+=("$s:dmma:bm=128,bn=64,bk=16,wm=64,wn=32,stages=3,min_blocks=2,group_m=$gm")
    done
done
timeout 400 python3 scripts/variants_s12/compare.py - tree 3 "${specs[@]}" > "$OUT/compare.log" 2>&1
echo "== compare rc $?"
tail -25 "$OUT/compare.log"
