#!/usr/bin/env bash
# Twelfth session (H100): the GEMV rungs with K cut into more slices than k_splits picks
# (scripts/probe_gemv_waves.py), beside a plain read of the same bytes and a device copy.
#   bash scripts/gpu_s12b.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 400 python3 scripts/probe_gemv_waves.py > "$OUT/gemv_waves.txt" 2>&1; echo "== waves rc $?"
cat "$OUT/gemv_waves.txt"
