#!/bin/bash
# seventeenth session: the float64 suite's rows under 0.95x cuBLAS against every candidate the cost
# model ranks and dmma_tail's two tiles (probe_lows.py suite).
#   bash scripts/gpu_s17h.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 400 python3 scripts/variants_s17/probe_lows.py suite float64 > "$OUT/suitelows_float64.txt" 2>&1
echo "rc $?"; grep -E "cuBLAS|auto=" "$OUT/suitelows_float64.txt"
