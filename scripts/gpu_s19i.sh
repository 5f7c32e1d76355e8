#!/bin/bash
# nineteenth session: the float64 dmma probes run through probe_f64_tiles.probe:
#   bash scripts/gpu_s19i.sh skinny   # skinny products (4-8 columns or rows) on dmma's small tiles
#                                     # against the cost model's GEMV picks (probe_f64_skinny.py)
#   bash scripts/gpu_s19i.sh 128x64   # the floor shape's 128 x 64 tile in neighbours outside the
#                                     # search space (probe_f64_128x64.py)
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
WHICH=${1:-skinny}
ROUNDS=$([ "$WHICH" = skinny ] && echo 2 || echo 3)
timeout 400 python3 "scripts/variants_s19/probe_f64_$WHICH.py" "$OUT/f64_$WHICH.jsonl" "$ROUNDS" > "$OUT/f64_$WHICH.txt" 2>&1
echo "rc $?"
cut -c1-150 "$OUT/f64_$WHICH.txt"
