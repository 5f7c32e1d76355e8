#!/usr/bin/env bash
# Twelfth session (H100): dmma's FRAG_AHEAD loop. GPU tests of dmma, dmma_split_k, dmma's layouts
# and the float64 gemm/core files (ragged, NaN/Inf, epilogues, batches, determinism), then
# compute-sanitizer memcheck and racecheck over sanitize_split.py (the loop's barrier moved).
#   bash scripts/gpu_s12d.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
bash scripts/gpu_dmma_tests.sh
echo "== tests $(( $(date +%s) - T0 )) s"
SAN_TIMEOUT=200 bash scripts/gpu_sanitize.sh memcheck,racecheck scripts/sanitize_split.py
echo "== sanitizer $(( $(date +%s) - T0 )) s"
