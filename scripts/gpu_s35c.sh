#!/bin/bash
# thirty-fifth session (written for a later call; never ran): ncu of wgmma_tma on a @ b against
# a.T @ b (A read in place column-major), float16, same config each: 1024^3 on 128 x 64 tiles
# (auto's pick; a.T @ b ran 0.80x cuBLAS against 0.97 plain) and 4096^3 on 128 x 256 (0.97 / 1.01).
# Warm-ups are skipped (2 launches); the next 4 are plain, plain, column-major, column-major.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
for run in "1024 --bn 64 --stages 8" "4096 --bn 256 --stages 3"; do
  tag=${run%% *}
  timeout 150 ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
      --section SchedulerStats --section LaunchStats --kernel-name regex:wgmma_tma --launch-skip 2 --launch-count 4 \
      python3 scripts/variants_s35/acol_pair.py $run > "$OUT/ncu_acol_$tag.txt" 2>&1
  echo "ncu $tag rc $?"
  grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Through|L2 Cache Through|L1/TEX Cache Through|Compute \(SM\)|Issue Slots Busy|Registers Per|Stall|Warp Cycles Per Issued|No Eligible" \
      "$OUT/ncu_acol_$tag.txt" | cut -c1-140 | head -60
done
