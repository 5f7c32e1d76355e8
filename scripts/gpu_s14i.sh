#!/usr/bin/env bash
# Fourteenth session (H100): the half GEMV shapes left to the split (scripts/variants_s14/probe_half_edges.py).
#   bash scripts/gpu_s14i.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 300 python3 scripts/variants_s14/probe_half_edges.py > "$OUT/probe_half_edges.txt" 2>&1
cat "$OUT/probe_half_edges.txt"
