#!/usr/bin/env bash
# Twelfth session, suite after the FRAG_AHEAD loop and the float64 retune (H100): both dtypes with auto and cuBLAS in 3 alternating rounds
# per row (benchmarks/shape_suite.py --rounds 3).
#   bash scripts/gpu_s12g.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
timeout 560 python3 benchmarks/shape_suite.py --rounds 3 --out "$OUT/suite" > "$OUT/suite.txt" 2>&1
echo "== suite rc $? $(( $(date +%s) - T0 )) s"; grep -E "Geometric" "$OUT/suite/shape_suite.md"
grep -E "^\| [a-z]" "$OUT/suite/shape_suite.md" | cut -c1-150
