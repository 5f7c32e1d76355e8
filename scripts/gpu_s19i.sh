#!/bin/bash
# nineteenth session: float64 skinny products (4-8 columns or rows) on dmma's small tiles against
# the GEMV rungs the cost model picks (scripts/variants_s19/probe_f64_skinny.py).
#   bash scripts/gpu_s19i.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 400 python3 scripts/variants_s19/probe_f64_skinny.py "$OUT/f64_skinny.jsonl" 2 > "$OUT/f64_skinny.txt" 2>&1
echo "rc $?"
cut -c1-150 "$OUT/f64_skinny.txt"
