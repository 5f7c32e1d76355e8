#!/bin/bash
# fifteenth session: ncu stall sampling of the persistent TMA-fed DMMA probe against the per-tile one
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
S="--section SpeedOfLight --section WarpStateStats --section SourceCounters --section ComputeWorkloadAnalysis"
timeout 300 ncu $S --kernel-name regex:dmma_tma python3 scripts/variants_s15/probe_dmma_tma.py --ncu 4096x4096x4096 "$@" > $OUT/ncu.txt 2>&1
echo "ncu rc $?"
grep -E "^  [a-zA-Z_].*\(|Duration|SM Busy|Warp Cycles Per Issued|stalled|Stall|^\s+[0-9a-f]{4,}\s|Location|Address" $OUT/ncu.txt | cut -c1-200 | head -120
