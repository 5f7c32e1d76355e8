#!/bin/bash
# twenty-fifth session: skinny float32 products (9-64 rows or columns streaming a large operand):
# auto against the GEMV rungs in chunks (gemv_xb_tma now takes mt = 16) and cuBLAS FP32.
#   bash scripts/gpu_s25a.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 400 python3 scripts/variants_s25/probe_skinny.py > "$OUT/skinny.md" 2>&1
echo "== rc $?"; cut -c1-170 "$OUT/skinny.md" | tail -150
