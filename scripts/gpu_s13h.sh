#!/usr/bin/env bash
# Thirteenth session (H100): a float64 tune of the suite's large shapes with dmma and dmma_tail
# (tune only: gpu_retune.sh with RUNS=0); the entries worth shipping are merged by hand.
#   bash scripts/gpu_s13h.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
RUNS=0 TUNE_TIMEOUT=200 bash scripts/gpu_retune.sh float64 dmma,dmma_tail compute 3001x2999x3007 5000x3000x1000 8192x8192x8192
grep -E "best|→|->" "$OUT/tune.log" | tail -12
