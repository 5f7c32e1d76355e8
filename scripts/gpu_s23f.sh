#!/bin/bash
# twenty-third session, sixth device call: the cost model's first 8 candidates timed on the odd
# random float64 sets (variants_s23/probe_odd_picks.py, seeds 2204 and 2203).
#   bash scripts/gpu_s23f.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export PYTHONPATH=.
for seed in 2204 2203; do
    timeout 250 python3 scripts/variants_s23/probe_odd_picks.py $seed 16 8 2 > "$OUT/odd_picks_$seed.txt" 2>&1
    echo "== odd picks $seed rc $?"; cut -c1-220 "$OUT/odd_picks_$seed.txt"
done
