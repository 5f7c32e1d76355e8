#!/usr/bin/env bash
# Twentieth session: why A·x at N = 8 stays at 84-85% of a copy (N = 1: 89-90%). Variants of the
# TMA-fed A·x, then ncu on auto's gemv_ax and the variants at both N.
set -uo pipefail
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}
python3 scripts/variants_s20/probe_ax_n8.py 2>&1 | tee "$OUT/ax_n8.txt"
ncu --kernel-name regex:"gemv_ax|ax_tma2" --launch-skip 0 --launch-count 8 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats \
    python3 scripts/variants_s20/probe_ax_n8.py --ncu > "$OUT/ncu_ax_n8.txt" 2>&1
grep -E "ax_tma2|gemv_ax|DRAM Throughput|Memory Throughput|L2 Hit|Achieved Occupancy|Duration|Stall" "$OUT/ncu_ax_n8.txt" | head -60
