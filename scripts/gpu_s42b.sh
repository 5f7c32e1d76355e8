#!/bin/bash
# forty-second session (written without a device), after gpu_s42a.sh on the same warm machine:
# (1) gpu_s41e.sh (skinny_b_rows.patch applied, probe_skinny_rows.py float16: 11 fixed shapes and
# a draw of 6, seed 4102; ~150 s); (2) probe_split_wave.py on bfloat16 (~150 s). The patch stays
# applied in the device's copy of the tree only.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
timeout ${WAVE_S:-200} python3 scripts/variants_s42/probe_split_wave.py --dtype bfloat16 > "$OUT/s42b_wave_bfloat16.md" 2>&1
echo "wave rc $?"; cat "$OUT/s42b_wave_bfloat16.md"
PROBE_S=${PROBE_S:-200} bash scripts/gpu_s41e.sh
