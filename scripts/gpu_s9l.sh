#!/usr/bin/env bash
# Ninth session, closing: the float64 shape suite (every class) on the final code, twice.
#   bash scripts/gpu_s9l.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
for r in 1 2; do
    timeout 280 python3 benchmarks/shape_suite.py --dtypes float64 --out "$OUT/suite64_$r" > "$OUT/suite64_$r.txt" 2>&1
    echo "suite $r rc $? $(( $(date +%s) - T0 )) s"; grep -E "Geometric" "$OUT/suite64_$r/shape_suite.md"
done
