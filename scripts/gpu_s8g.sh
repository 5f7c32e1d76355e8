#!/usr/bin/env bash
# Eighth session: float64 compute-bound shapes retuned with dmma and dmma_split_k now that a
# split product's reduce is cheap (lanes, early start); the suite's compute-bound class once with
# each database (scripts/gpu_retune.sh).
#   bash scripts/gpu_s8g.sh
set -u
cd "$(dirname "$0")/.."
RUNS=1 scripts/gpu_retune.sh float64 dmma,dmma_split_k compute 1024 2048 5000x3000x1000 \
    128x8192x8192 8192x8192x128 3001x2999x3007 16384x64x4096
