#!/usr/bin/env bash
# Twelfth session (H100): retune of the float64 shapes whose picks are 128 x 64 tiles (compute-
# bound class), now that 8-warp tiles take the FRAG_AHEAD loop; tune only (RUNS=0), into $OUT/db.json.
#   bash scripts/gpu_s12f.sh
set -u
cd "$(dirname "$0")/.."
RUNS=0 TUNE_TIMEOUT=540 bash scripts/gpu_retune.sh float64 dmma,dmma_split_k compute \
    8192 4096x4096x16384 3001x2999x3007 8192x8192x128 16384x64x4096 128x8192x8192
