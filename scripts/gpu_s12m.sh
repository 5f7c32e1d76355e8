#!/usr/bin/env bash
# Twelfth session (H100): dmma's FRAG_AHEAD loop with m16n8k16 DMMAs (mma_k=16, cuBLAS's choice at
# 768^3 and 1024^3) against the same tiles at m16n8k8, float64, fixed configs in alternating rounds
# (errors against cuBLAS printed: a wrong fragment layout shows there).
#   bash scripts/gpu_s12m.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
specs=()
for k in 8 16; do
    for s in 768x768x768 1024x1024x1024 640x640x640 1001x1001x1001; do
        specs+=("$s:dmma:bm=32,bn=64,bk=16,wm=16,wn=32,stages=4,min_blocks=3,mma_k=$k"
                "$s:dmma:bm=64,bn=64,bk=16,wm=32,wn=16,stages=4,min_blocks=1,mma_k=$k"
                "$s:dmma:bm=32,bn=64,bk=32,wm=16,wn=32,stages=3,min_blocks=2,mma_k=$k"
                "$s:dmma:bm=128,bn=64,bk=32,wm=32,wn=32,stages=3,min_blocks=1,mma_k=$k")
    done
    specs+=("512x512x512:dmma:bm=32,bn=32,bk=32,wm=16,wn=16,stages=5,min_blocks=2,mma_k=$k"
            "256x256x256:dmma:bm=32,bn=32,bk=32,wm=16,wn=16,stages=5,min_blocks=2,mma_k=$k")
done
specs+=(768x768x768 1024x1024x1024 640x640x640 1001x1001x1001 512x512x512 256x256x256)
timeout 400 python3 scripts/variants_s12/compare.py - tree 3 "${specs[@]}" > "$OUT/compare.log" 2>&1
echo "== compare rc $?"
tail -43 "$OUT/compare.log"
