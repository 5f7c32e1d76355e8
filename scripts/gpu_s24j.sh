#!/bin/bash
# twenty-fourth session: would MODEL_TILES help skinny float32 outputs too (9 <= min(M, N) <= 64,
# which it leaves to the heuristic)? The heuristic's pick and the model's among the wgmma rungs,
# timed beside cuBLAS FP32 on random shapes from 1 (seeds 40-51).
#   bash scripts/gpu_s24j.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 280 python3 scripts/variants_s24/probe_f32_tiles.py $(seq 40 51) --lo 1 --skinny > "$OUT/f32_skinny.txt" 2>&1
echo "== rc $?"; cut -c1-150 "$OUT/f32_skinny.txt" | tail -50
