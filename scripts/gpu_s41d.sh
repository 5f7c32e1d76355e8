#!/bin/bash
# forty-first session: heuristic._b_rows_in_place held out (probe_cluster_free_rows.py, seed 4101,
# both 16-bit dtypes: auto's new cluster-free pick against the old clustered one, beside cuBLAS),
# then the narrow-C draw of seed 3902 in float16 (gpu_s41a.sh's third part). About 300 s.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
for dt in float16 bfloat16; do
  timeout ${PROBE_S:-110} python3 scripts/variants_s41/probe_cluster_free_rows.py --dtype $dt > "$OUT/s41d_cfree_$dt.md" 2>&1
  echo "cluster-free $dt rc $?"; cat "$OUT/s41d_cfree_$dt.md"
done
timeout 100 python3 scripts/variants_s38/probe_narrow_heldout.py --seed 3902 --dtype float16 \
  > "$OUT/s41d_narrow_3902_float16.md" 2>&1
echo "draw 3902 float16 rc $?"; grep -E "^auto|^256|^128|geometric" "$OUT/s41d_narrow_3902_float16.md"
