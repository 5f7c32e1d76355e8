#!/bin/bash
# twenty-third session, fifth device call: where float64 products with an odd N or K lose time
# (variants_s23/probe_odd.py) on the two odd random sets (seeds 2204, 2203).
#   bash scripts/gpu_s23e.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export PYTHONPATH=.
for seed in 2204 2203; do
    timeout 200 python3 scripts/variants_s23/probe_odd.py $seed 16 2 > "$OUT/odd_$seed.txt" 2>&1
    echo "== odd $seed rc $?"; cat "$OUT/odd_$seed.txt"
done
