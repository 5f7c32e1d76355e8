#!/bin/bash
# forty-first session: (1) test_gpu_wgmma_tma_rows (two tests changed shapes after their last run,
# the b_rows sibling now kept with the plain kernel, and wgmma_tma_split_k's b_rows sibling) and
# test_gpu_wgmma_tma_split_k (its N = 4, 60, ... shapes now go through that sibling), 8 shards;
# (2) probe_split_rows.py: split with B in place vs copied into padded rows, vs cuBLAS;
# (3) probe_rows_route.py (gpu_s41a.sh's question: b_rows with more tile rows, and on clustered
# one-row picks). float16 only, to fit the session's device time. About 420 s.
# Cache (CPU): precompile_rows.py, variants_s33/precompile_plain.py wgmma_tma,wgmma_tma_split_k,
# variants_s41/precompile_split_rows.py into scratch/cubin_s32b.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
NSHARD=8 SHARD_TIMEOUT=${TESTS_S:-170} scripts/gpu_shards.sh s41b_tests tests/test_gpu_wgmma_tma_rows.py \
    tests/test_gpu_wgmma_tma_split_k.py
timeout ${SPLIT_S:-110} python3 scripts/variants_s41/probe_split_rows.py --dtype float16 > "$OUT/s41b_split_float16.md" 2>&1
echo "split rc $?"; cat "$OUT/s41b_split_float16.md"
timeout ${PROBE_S:-130} python3 scripts/variants_s40/probe_rows_route.py --dtype float16 > "$OUT/s41b_route_float16.md" 2>&1
echo "route rc $?"; cat "$OUT/s41b_route_float16.md"
