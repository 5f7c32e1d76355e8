#!/usr/bin/env bash
# Thirteenth session (H100): dmma_tail's main loop against dmma's where its plan is dmma's launch
# (no tail: 2048^3, 4096^3), and where it has a tail (3001^3, 8192^3, 1001^3 on the 128 x 64 x 32
# tile), 7 alternating rounds.
#   bash scripts/gpu_s13e.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
B2="bm=128,bn=128,wm=32,wn=64"
T="bm=128,bn=128,wm=32,wn=64,min_blocks=1"
S="bm=128,bn=64,bk=32,wm=32,wn=32"
specs=()
for s in 2048x2048x2048 4096x4096x4096 3001x2999x3007 8192x8192x8192; do specs+=("$s:dmma:$B2" "$s:dmma_tail:$T"); done
for s in 1001x1001x1001 1280x1280x1280 2000x2000x2000; do specs+=("$s:dmma:$S" "$s:dmma_tail:$S" "$s"); done
timeout 560 python3 scripts/variants_s12/compare.py - tree 7 "${specs[@]}" > "$OUT/compare.log" 2>&1
echo "== compare rc $?"
tail -19 "$OUT/compare.log"
