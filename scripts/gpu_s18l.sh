#!/bin/bash
# eighteenth session: ncu on the 16-bit decode split against cuBLAS (scripts/variants_s18/ncu_decode.py):
# time, DRAM throughput and the memory-workload summary of each kernel, for the next session.
#   bash scripts/gpu_s18l.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 240 ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy \
    --launch-skip 8 --launch-count 24 python3 scripts/variants_s18/ncu_decode.py > "$OUT/ncu_decode.txt" 2>&1
echo "ncu rc $?"
grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Memory Throughput|Grid Size|Achieved Occupancy" "$OUT/ncu_decode.txt" | head -80
