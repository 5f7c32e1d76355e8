#!/bin/bash
# eighteenth session, final: the 16-bit public suite on the final rules.
#   bash scripts/gpu_s18j.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 200 python3 benchmarks/shape_suite.py --dtypes float16,bfloat16 --out "$OUT" > "$OUT/suite16.log" 2>&1
echo "suite rc $?"; grep -E "Geometric" "$OUT/suite16.log"
