#!/bin/bash
# for the forty-second session (written in the forty-first; not run: its device time ran out):
# scripts/variants_s41/skinny_b_rows.patch applied to the work tree (heuristic.SKINNY_B_ROWS: a
# 16-bit x·B of M = 3..15 rows and an even N % 8 != 0 takes the TMA rungs' rules, its B read in
# place by b_rows, instead of mma_half_split_k's padded copy), then probe_skinny_rows.py, float16:
# auto with the patch's rule against the old picks, 11 fixed shapes and a draw of 6 (seed 4102).
# About 150 s. Cache (CPU): the b_rows and split kernels as for gpu_s41b.sh.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
grep -q SKINNY_B_ROWS tiled_matmul/heuristic.py || patch -p1 < scripts/variants_s41/skinny_b_rows.patch \
  || git apply scripts/variants_s41/skinny_b_rows.patch || { echo "patch did not apply"; exit 1; }
timeout ${PROBE_S:-200} python3 scripts/variants_s41/probe_skinny_rows.py --dtype float16 > "$OUT/s41e_skinny_float16.md" 2>&1
echo "skinny rc $?"; cat "$OUT/s41e_skinny_float16.md"
