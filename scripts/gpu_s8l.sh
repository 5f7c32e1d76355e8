#!/usr/bin/env bash
# Eighth session: 640^3 and 768^3 float64 share the 768 tuning bucket, whose entry (tuned at 768^3:
# dmma_split_k, 4 slices) ran 640^3 at 0.68x. Tuned at 640^3 instead (dmma, dmma_split_k); the
# suite's small class twice with each database (scripts/gpu_retune.sh).
#   bash scripts/gpu_s8l.sh
set -u
cd "$(dirname "$0")/.."
scripts/gpu_retune.sh float64 dmma,dmma_split_k small 640
