#!/usr/bin/env bash
# Ninth session: where dmma's issue slots go at 4096³ against cuBLAS DGEMM's same tile: ncu's warp
# state statistics and its per-SASS-instruction stall samples (source page) for both kernels.
#   bash scripts/gpu_s9h.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for impl in ours cublas; do
    timeout 200 ncu --kernel-name regex:'dmma|gemm' --launch-skip 2 --launch-count 1 --section WarpStateStats \
        --section SourceCounters --import-source no -o "$OUT/rep_$impl" \
        python3 scripts/probe_clock.py --impl $impl --mode float64 --size 4096 --blocks 1 --calls 3 > "$OUT/ncu_$impl.log" 2>&1
    echo "== $impl rc=$?"
    ncu -i "$OUT/rep_$impl.ncu-rep" --page details --print-details all > "$OUT/details_$impl.txt" 2>&1
    ncu -i "$OUT/rep_$impl.ncu-rep" --page source --csv --print-source sass > "$OUT/sass_$impl.csv" 2>&1
    grep -E "Stall|Warp Cycles" "$OUT/details_$impl.txt" | head -30
    wc -l "$OUT/sass_$impl.csv"
done
