#!/usr/bin/env bash
# Twelfth session (H100): 8-warp dmma tiles that take the FRAG_AHEAD loop (128 x 64 x 32 at warp
# tile 32 x 32, one block per SM, cuBLAS's 1024^3 tile; 128 x 128 x 16 at 32 x 64) against auto's
# picks (the 4-row 128 x 64 x 16 tile) on the large float64 shapes, in alternating rounds.
#   bash scripts/gpu_s12e.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
specs=()
for s in 2048x2048x2048 4096x4096x4096 5000x3000x1000 8192x8192x128 1024x1024x1024; do
    specs+=("$s" "$s:dmma:bm=128,bn=64,bk=32,wm=32,wn=32,stages=3,min_blocks=1"
            "$s:dmma:bm=128,bn=128,bk=16,wm=32,wn=64,stages=3,min_blocks=1")
done
timeout 400 python3 scripts/variants_s12/compare.py - tree 3 "${specs[@]}" > "$OUT/compare.log" 2>&1
echo "== compare rc $?"
tail -17 "$OUT/compare.log"
