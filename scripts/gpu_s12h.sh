#!/usr/bin/env bash
# Twelfth session (H100): more dmma tiles whose warps hold two m16 rows (the FRAG_AHEAD loop)
# against auto's picks on the large float64 shapes, in alternating rounds (variants_s12/compare.py).
#   bash scripts/gpu_s12h.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
specs=()
for s in 2048x2048x2048 4096x4096x4096 5000x3000x1000 8192x8192x128; do
    specs+=("$s")
    for p in bm=128,bn=128,bk=32,wm=32,wn=64,stages=3,min_blocks=1 bm=128,bn=128,bk=16,wm=32,wn=64,stages=4,min_blocks=1 \
             bm=128,bn=64,bk=16,wm=32,wn=64,stages=3,min_blocks=2 bm=64,bn=128,bk=16,wm=32,wn=64,stages=4,min_blocks=2 \
             bm=256,bn=64,bk=16,wm=32,wn=64,stages=3,min_blocks=1; do
        specs+=("$s:dmma:$p")
    done
done
timeout 500 python3 scripts/variants_s12/compare.py - tree 3 "${specs[@]}" > "$OUT/compare.log" 2>&1
echo "== compare rc $?"
tail -25 "$OUT/compare.log"
