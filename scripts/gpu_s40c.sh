#!/bin/bash
# fortieth session, after gpu_s40b.sh: the cp.async B producer with mixed copy sizes (8 bytes on
# lines whose start is 8-byte aligned, 4 on the others: probe_cp_b.py "mix"): one launch of each
# kernel per shape in its own process, ncu sections of the 4-, 8-byte and mixed kernels at
# 64x10186x4000 / 64x10188x4000 (what limits the 4-byte copies: 85 us where 8-byte ran 62), then
# the timed probe. About 250 s.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
P=scripts/variants_s40/probe_cp_b.py
KS=128x128:mix,128x64:mix,128x128:mix+nofence
for s in 64x10186x4000 33x10186x4001 7x1000x130 1x10x64 128x10190x4096 64x10188x4000 5x2x64; do
  timeout 60 python3 $P --diagnose $s --kernels $KS 2>&1 | tail -3
done
for spec in "64x10186x4000 128x128:4" "64x10188x4000 128x128:8" "64x10186x4000 128x128:mix"; do
  set -- $spec
  timeout 90 ncu --kernel-name regex:cpb --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section SchedulerStats python3 $P --diagnose $1 --kernels $2 \
    > "$OUT/s40c_ncu_${2/:/_}.txt" 2>&1
  echo "ncu $spec rc $?"; grep -E "Memory Throughput|DRAM Throughput|L1/TEX Hit|Duration|Mem Busy|Max Bandwidth|Mem Pipes Busy|Issued Warp|No Eligible|Stall|lsu|LSU|MIO" "$OUT/s40c_ncu_${2/:/_}.txt" | head -20
done
timeout ${PROBE_S:-200} python3 $P --kernels 128x128:vec,128x128:mix,128x64:mix > "$OUT/s40c_cpb_float16.md" 2>&1
echo "probe rc $?"; cat "$OUT/s40c_cpb_float16.md"
