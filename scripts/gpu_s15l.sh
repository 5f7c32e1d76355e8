#!/bin/bash
# fifteenth session: float32's small outputs with a short K against smaller FFMA tiles
#   bash scripts/gpu_s15l.sh [risky]
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 400 python3 scripts/variants_s15/probe_f32_small.py "$@" > "$OUT/probe_f32_small${1:-}.txt" 2>&1; echo "rc $?"
python3 scripts/variants_s15/compact.py "$OUT/probe_f32_small${1:-}.txt"
