#!/bin/bash
# fortieth session: the cp.async B producer for 16-bit B rows off 16 bytes
# (variants_s40/probe_cp_b.py): one launch of each variant per shape in its own process (a fault
# must not take the timed run with it), then the timed probe beside auto and cuBLAS. ~200 s.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
P=scripts/variants_s40/probe_cp_b.py
for s in 64x10186x4000 33x10188x4001 7x1000x130 1x10x64 128x10186x4000; do
  timeout 60 python3 $P --diagnose $s 2>&1 | tail -4
done
timeout ${PROBE_S:-300} python3 $P > "$OUT/s40b_cpb_float16.md" 2>&1
echo "probe rc $?"; cat "$OUT/s40b_cpb_float16.md"
