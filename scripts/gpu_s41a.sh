#!/bin/bash
# for the forty-first session (written in the fortieth; not run): (1) test_gpu_wgmma_tma_rows in 8
# shards (two of its tests changed shapes after their last run: b_rows routing narrowed to a C of
# one tile row); (2) probe_rows_route.py, both 16-bit dtypes: is b_rows ahead of the padded copy
# with more tile rows, and on one-row products whose pick is clustered (17 x 50258 x 4096)?
# (3) the narrow-C held-out draw of seed 3902 (gpu_s39a.sh's other half). About 400 s.
# Cache (CPU): the b_rows cubins are in scratch/cubin_s32b (/tmp/precompile_rows.py's list,
# fortieth session); the probe's bn=64/128/256 b_rows configs compile on first use otherwise.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
NSHARD=8 SHARD_TIMEOUT=${TESTS_S:-150} scripts/gpu_shards.sh s41a_tests tests/test_gpu_wgmma_tma_rows.py
for dt in float16 bfloat16; do
  timeout ${PROBE_S:-120} python3 scripts/variants_s40/probe_rows_route.py --dtype $dt > "$OUT/s41a_route_$dt.md" 2>&1
  echo "route $dt rc $?"; cat "$OUT/s41a_route_$dt.md"
done
for dt in float16 bfloat16; do
  timeout 100 python3 scripts/variants_s38/probe_narrow_heldout.py --seed 3902 --dtype $dt \
    > "$OUT/s41a_narrow_3902_$dt.md" 2>&1
  echo "draw 3902 $dt rc $?"; grep -E "^auto|^256" "$OUT/s41a_narrow_3902_$dt.md"
done
