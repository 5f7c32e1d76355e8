#!/usr/bin/env bash
# ncu over the known performance gaps (scripts/profile_gaps.py): ours and cuBLAS side by side.
# Logs under $OUT; prints the kernels' names, grids, registers and the headline metrics.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NCU=${NCU:-ncu}
SECTIONS="--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis"
for case in ${CASES:-dmma4096 batched64 alphabeta plain4096}; do
    timeout 240 "$NCU" $SECTIONS -k 'regex:^(tm_|.*gemm|.*xmma|.*sm90|.*cutlass)' --launch-skip 2 --launch-count 8 \
        python3 scripts/profile_gaps.py "$case" > "$OUT/ncu_$case.txt" 2>&1
    echo "=== $case"; grep -E "auto picks|^  [a-zA-Z_].*\(|Duration|Registers Per|Dynamic Shared|Compute \(SM\) Throughput|Memory Throughput|Achieved Occupancy|Grid Size|Block Size|Issue Slots Busy|Warp Cycles Per Issued|L1/TEX Hit|Bank" "$OUT/ncu_$case.txt" | head -80
done
