#!/usr/bin/env bash
# Fourteenth session (H100): auto against cuBLAS on shapes drawn at random, every float dtype.
#   bash scripts/gpu_s14a.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 280 python3 benchmarks/random_shapes.py --count 24 --lo 256 --dtypes float32,float64,float16,bfloat16 --out "$OUT" > "$OUT/random_lo256.log" 2>&1
timeout 280 python3 benchmarks/random_shapes.py --count 24 --lo 1 --dtypes float32,float64,float16,bfloat16 --out "$OUT" > "$OUT/random_lo1.log" 2>&1
for f in "$OUT"/random_shapes_lo*.md; do grep -E "geometric|^GPU" "$f"; done
