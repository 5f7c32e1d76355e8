#!/usr/bin/env bash
# Eleventh session (H100): a retune of the float64 rows still under 0.90x cuBLAS that split K or
# are small (256x256x131072, 1024^3, 768^3, 640^3) with dmma and dmma_split_k's search spaces
# (dmma_split_k's 16-deep 128 x 64 tile among them), judged by the suite's small, compute-bound
# and long-K classes in alternating rounds (scripts/gpu_retune.sh).
#   bash scripts/gpu_s11i.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
RUNS=1 bash scripts/gpu_retune.sh float64 dmma,dmma_split_k "small;compute;long K" 256x256x131072 1024 768 640
grep -E "x[0-9]+ *│|float64" "$OUT/tune.log" | head -12
