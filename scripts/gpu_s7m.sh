#!/usr/bin/env bash
# Seventh session: float64 small cubes retuned with the timer's host lead (the sixth session's
# picks were timed when a split product's host work could outrun the flush): dmma and dmma_split_k,
# then the suite's small class once with each database (scripts/gpu_retune.sh).
#   bash scripts/gpu_s7m.sh
set -u
cd "$(dirname "$0")/.."
RUNS=1 scripts/gpu_retune.sh float64 dmma,dmma_split_k small 256 384 512 640 768
