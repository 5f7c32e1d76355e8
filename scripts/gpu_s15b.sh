#!/bin/bash
# fifteenth session: ncu (base clocks) of the TMA-fed DMMA probe beside auto's dmma and cuBLAS at 4096^3
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
S="--section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats"
timeout 300 ncu $S python3 scripts/variants_s15/probe_dmma_tma.py --ncu 4096x4096x4096 t128x128_w32x64_s5_d1 t128x64_w64x32_s3_d1 > $OUT/ncu.txt 2>&1
echo "ncu rc $?"
grep -E "^  [a-zA-Z_].*\(|Duration|SM Frequency|Registers Per|Issue Slots Busy|Executed Ipc A|Stall|Pipe|Warp Cycles Per Issued|No Eligible|Active Warps Per" $OUT/ncu.txt | cut -c1-150 | head -150
