#!/bin/bash
# forty-second session (written without a device): scripts/variants_s42/b_shift.patch applied to the
# device's copy of the tree (wgmma_tma's b_shift: a 16-bit B of odd N read in place, its odd lines
# staged and shifted; heuristic.ODD_ROWS_IN_PLACE), then (1) shift_small.py under compute-sanitizer
# memcheck, racecheck and synccheck (~90 s); (2) in 8 shards test_gpu_wgmma_tma_shift (new),
# test_gpu_wgmma_tma_rows, test_gpu_wgmma_tma_split_k (~120 s); (3) probe_shift.py float16: auto
# with the patch against the old picks and the shift siblings, 11 fixed shapes and a draw of 6
# (seed 4203) (~150 s). Ship the patch only if (1) and (2) pass; the rule only if auto gains.
# Cache (CPU): as gpu_s42a.sh, plus probe_shift.py --compile-only scratch/cubin_s32b (run on the
# patched tree).
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
grep -q ODD_ROWS_IN_PLACE tiled_matmul/heuristic.py || git apply scripts/variants_s42/b_shift.patch \
  || patch -p1 < scripts/variants_s42/b_shift.patch || { echo "b_shift.patch did not apply"; exit 1; }
for t in memcheck racecheck synccheck; do
  timeout ${SAN_S:-50} compute-sanitizer --tool $t python3 scripts/variants_s42/shift_small.py > "$OUT/s42c_$t.txt" 2>&1
  echo "$t rc $?: $(grep -E '^(PASS|FAIL)|ERROR SUMMARY' "$OUT/s42c_$t.txt" | tr '\n' ' ')"
done
NSHARD=8 SHARD_TIMEOUT=${TESTS_S:-180} scripts/gpu_shards.sh s42c_tests tests/test_gpu_wgmma_tma_shift.py \
    tests/test_gpu_wgmma_tma_rows.py tests/test_gpu_wgmma_tma_split_k.py
timeout ${PROBE_S:-180} python3 scripts/variants_s42/probe_shift.py --dtype float16 > "$OUT/s42c_shift_float16.md" 2>&1
echo "shift rc $?"; cat "$OUT/s42c_shift_float16.md"
