#!/bin/bash
# twenty-sixth session: float32 products with 17-64 rows or columns on the wgmma rungs with a
# narrow wgmma n (bm 24-48), A·x as its transpose; against auto and cuBLAS FP32.
#   bash scripts/gpu_s26a.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv > "$OUT/smi.txt" 2>&1
timeout 420 python3 scripts/variants_s26/probe_narrow.py > "$OUT/narrow.md" 2>&1
echo "== rc $?"; cut -c1-170 "$OUT/narrow.md"
