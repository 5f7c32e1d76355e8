#!/bin/bash
# nineteenth session: dmma's 128 x 64 tile's neighbours outside the search space on the float64
# floor shape and its kin (scripts/variants_s19/probe_f64_128x64.py).
#   bash scripts/gpu_s19k.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 400 python3 scripts/variants_s19/probe_f64_128x64.py "$OUT/f64_128x64.jsonl" 3 > "$OUT/f64_128x64.txt" 2>&1
echo "rc $?"
cut -c1-150 "$OUT/f64_128x64.txt"
