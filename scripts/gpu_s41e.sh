#!/bin/bash
# forty-first session: probe_skinny_rows.py, float16 (M 1-15 x·B with an even N % 8 != 0: auto's
# mma_half_split_k / gemv_xb_half element picks against wgmma_tma and its split reading B in place).
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
timeout ${PROBE_S:-150} python3 scripts/variants_s41/probe_skinny_rows.py --dtype float16 > "$OUT/s41e_skinny_float16.md" 2>&1
echo "skinny rc $?"; cat "$OUT/s41e_skinny_float16.md"
