#!/usr/bin/env bash
# Eleventh session (H100): dmma's DMMAs of a step issued column of n8 tiles by column (j outer)
# instead of row by row (scripts/variants_s11/dmma_mma_order.patch; each accumulator sees the same
# k order, so outputs are bit-identical), against the template as it is: auto on aligned float64
# shapes in 5 alternating rounds, then ncu's fixed-clock kernel time at 4096^3, twice each.
#   bash scripts/gpu_s11l.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
bash scripts/variant_vs_base.sh ji scripts/variants_s11/dmma_mma_order.patch
