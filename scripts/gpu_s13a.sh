#!/usr/bin/env bash
# Thirteenth session (H100): two-row warp tiles (FRAG_AHEAD loop) in 128 x 64 and 64 x 128 blocks
# of 4 warps at 2 blocks per SM, against the four-row 128 x 64 tile (old loop) and the 128 x 128
# two-row tile, on the float64 suite rows they run, alternating rounds, each against cuBLAS.
#   bash scripts/gpu_s13a.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
F4="bm=128,bn=64,wm=64,wn=32,min_blocks=2"      # four rows per warp (the shipped 128 x 64)
T2="bm=128,bn=64,wm=32,wn=64,min_blocks=2"      # two rows per warp, 4 warps, 2 blocks per SM
T2T="bm=64,bn=128,wm=32,wn=64,min_blocks=2"
B2="bm=128,bn=128,wm=32,wn=64"                  # the 128 x 128 two-row tile, 8 warps, 1 block
S="dmma_split_k"
timeout 560 python3 scripts/variants_s12/compare.py - tree 3 \
    5000x3000x1000:dmma:$F4 5000x3000x1000:dmma:$T2 5000x3000x1000:dmma:$T2T 5000x3000x1000:dmma:$B2 \
    5000x3000x1000:dmma:$T2,group_m=4 \
    4096x4096x4096:dmma:$B2 4096x4096x4096:dmma:$T2 4096x4096x4096:dmma:$T2T 4096x4096x4096:dmma:$F4 \
    2048x2048x2048:dmma:$B2 2048x2048x2048:dmma:$T2 2048x2048x2048:dmma:$T2T \
    128x8192x8192:$S:$F4,bk=16,stages=3,split_k=2 128x8192x8192:$S:$T2,bk=16,stages=3,split_k=2 \
    128x8192x8192:$S:$T2T,bk=16,stages=3,split_k=2 \
    256x256x131072:$S:$F4,bk=16,stages=3,split_k=32 256x256x131072:$S:$T2,bk=16,stages=3,split_k=32 \
    256x256x131072:$S:$T2T,bk=16,stages=3,split_k=32 \
    8192x8192x128:dmma:$F4,group_m=1 8192x8192x128:dmma:$T2,group_m=1 8192x8192x128:dmma:$T2T,group_m=1 \
    3001x2999x3007:dmma:$B2 3001x2999x3007:dmma:$T2 \
    > "$OUT/compare.log" 2>&1
echo "== compare rc $?"
tail -24 "$OUT/compare.log"
