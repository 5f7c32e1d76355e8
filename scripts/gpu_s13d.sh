#!/usr/bin/env bash
# Thirteenth session (H100): dmma_tail's first checks (variants_s13/check_tail.py) and its times
# against dmma's tiles and cuBLAS, alternating rounds.
#   bash scripts/gpu_s13d.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 200 python3 scripts/variants_s13/check_tail.py > "$OUT/check.log" 2>&1
echo "== check rc $?"; grep -c OK "$OUT/check.log"; grep -v OK "$OUT/check.log" | tail -8
F4="bm=128,bn=64,wm=64,wn=32,min_blocks=2"
B2="bm=128,bn=128,wm=32,wn=64"
T="bm=128,bn=128,wm=32,wn=64,min_blocks=1"
specs=()
for s in 5000x3000x1000 3001x2999x3007 8192x8192x8192 2500x2500x2500 1500x1500x1500 4096x4096x4096 \
         2048x2048x2048 1536x1536x1536 6000x4000x2000 3000x5000x1000; do
    specs+=("$s:dmma:$B2" "$s:dmma_tail:$T" "$s")
done
timeout 380 python3 scripts/variants_s12/compare.py - tree 3 "${specs[@]}" 5000x3000x1000:dmma:$F4 > "$OUT/compare.log" 2>&1
echo "== compare rc $?"
tail -33 "$OUT/compare.log"
