#!/bin/bash
# seventeenth session: the picks the split rules (float32, 16-bit) and the cost model's rounds term
# (float64) moved, old against new with cuBLAS (probe_picks.py over changed_picks.json).
#   bash scripts/gpu_s17c.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv > "$OUT/gpu.txt" 2>&1
for dt in float32 float64 float16 bfloat16; do
    timeout 200 python3 scripts/variants_s17/probe_picks.py scripts/variants_s17/changed_picks.json $dt > "$OUT/picks_$dt.txt" 2>&1
    echo "picks $dt rc $?"; tail -1 "$OUT/picks_$dt.txt"
done
