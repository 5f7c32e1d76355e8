#!/usr/bin/env bash
# Thirteenth session (H100): where the 128 x 64 four-row tile loses at 5000 x 3000 x K. The same
# M x N at K = 500 ... 4000 (the per-tile fixed cost against the per-step rate, each beside
# cuBLAS), and 64 x 8192 x 8192 on the split tiles with two-row warps.
#   bash scripts/gpu_s13b.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
F4="bm=128,bn=64,wm=64,wn=32,min_blocks=2"
T2="bm=128,bn=64,wm=32,wn=64,min_blocks=2"
T2T="bm=64,bn=128,wm=32,wn=64,min_blocks=2"
B2="bm=128,bn=128,wm=32,wn=64"
S="dmma_split_k"
specs=()
for k in 250 500 1000 2000 4000; do specs+=(5000x3000x$k:dmma:$F4 5000x3000x$k:dmma:$B2); done
timeout 400 python3 scripts/variants_s12/compare.py - tree 3 "${specs[@]}" \
    64x8192x8192:$S:bk=16,wn=16,min_blocks=2,split_k=2 \
    64x8192x8192:$S:$T2T,bk=16,stages=3,split_k=2 64x8192x8192:$S:$T2T,bk=16,stages=3,split_k=4 \
    64x8192x8192:$S:bm=64,bn=64,wm=32,wn=32,bk=16,stages=4,min_blocks=2,split_k=4 \
    > "$OUT/compare.log" 2>&1
echo "== compare rc $?"
tail -16 "$OUT/compare.log"
