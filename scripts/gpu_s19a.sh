#!/bin/bash
# nineteenth session: float64 tiles of 96 against the shipped ones (probe_f64_tiles.py), and ncu on
# the float32 memory-bound rows under 88% of copy (ncu_gemv.py).
#   bash scripts/gpu_s19a.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv
timeout 200 ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy \
    --section WarpStateStats --launch-skip 8 --launch-count 40 python3 scripts/variants_s19/ncu_gemv.py > "$OUT/ncu_gemv.txt" 2>&1
echo "ncu rc $?"
timeout 330 python3 scripts/variants_s19/probe_f64_tiles.py "$OUT/f64_tiles.jsonl" 2 > "$OUT/f64_tiles.txt" 2>&1
echo "probe rc $?"
cat "$OUT/f64_tiles.txt"
grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Achieved Occupancy|Registers Per" "$OUT/ncu_gemv.txt" | cut -c1-150 | head -90
