#!/usr/bin/env bash
# Fourteenth session (H100): candidates on the small and skinny shapes auto loses on
# (scripts/variants_s14/probe_small.py).
#   bash scripts/gpu_s14c.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 400 python3 scripts/variants_s14/probe_small.py > "$OUT/probe_small.txt" 2>&1
cat "$OUT/probe_small.txt"
