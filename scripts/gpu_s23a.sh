#!/bin/bash
# twenty-third session, first device call: dmma_tail on the pairs-layout tiles against dmma's
# same tiles, auto and cuBLAS (scripts/variants_s23/probe_tail_pairs.py), on the large float64
# shapes and 16 random ones.
#   bash scripts/gpu_s23a.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
PYTHONPATH=. timeout 330 python3 scripts/variants_s23/probe_tail_pairs.py 3 big > "$OUT/tail_pairs_big.txt" 2>&1
echo "== big rc $?"
PYTHONPATH=. timeout 200 python3 scripts/variants_s23/probe_tail_pairs.py 2 random > "$OUT/tail_pairs_random.txt" 2>&1
echo "== random rc $?"
for f in big random; do echo "== $f"; grep -A30 "^shape" "$OUT/tail_pairs_$f.txt"; grep -i "fail\|error" "$OUT/tail_pairs_$f.txt" | head -5; done
