#!/usr/bin/env bash
# Fourteenth session (H100): 16-bit x·B with unaligned rows of B (scripts/variants_s14/probe_lm_head.py).
#   bash scripts/gpu_s14k.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 200 python3 scripts/variants_s14/probe_lm_head.py > "$OUT/probe_lm_head.txt" 2>&1
cat "$OUT/probe_lm_head.txt"
