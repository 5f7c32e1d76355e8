#!/bin/bash
# eighteenth session: the public suite in float16 and bfloat16 (never run before), and 16-bit
# decode-like / long-K shapes against every ranked candidate.
#   bash scripts/gpu_s18a.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 280 python3 scripts/variants_s18/probe_half_decode.py float16 > "$OUT/half_decode.txt" 2>&1
echo "probe rc $?"
timeout 250 python3 benchmarks/shape_suite.py --dtypes float16,bfloat16 --out "$OUT" > "$OUT/suite16.log" 2>&1
echo "suite rc $?"
grep -E "geometric|lowest|mean" "$OUT/suite16.log" | head
grep -E "cuBLAS|auto=" "$OUT/half_decode.txt" | cut -c1-120
