#!/bin/bash
# forty-second session (written without a device; for the next one that has one): (1) the GPU tests
# of the launch path refactored after the forty-first session's device time (WgmmaTmaConfig.read_b,
# 1041f35: wgmma_tma's and its split's routing of B in one method), in 8 shards:
# test_gpu_wgmma_tma_rows, test_gpu_wgmma_tma_split_k, test_gpu_wgmma_tma, test_gpu_gemm (~160 s);
# (2) variants_s42/probe_split_wave.py, float16: one-row products of 67-128 128 x 128 tiles,
# unsplit (auto) against 2-8 slices, 12 fixed shapes and a draw of 8 (seed 4201) (~150 s).
# Cache (CPU, ~50 s): precompile_rows.py, variants_s33/precompile_plain.py wgmma_tma,wgmma_tma_split_k,
# variants_s41/precompile_split_rows.py and probe_split_wave.py --compile-only into scratch/cubin_s32b.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
NSHARD=8 SHARD_TIMEOUT=${TESTS_S:-200} scripts/gpu_shards.sh s42a_tests tests/test_gpu_wgmma_tma_rows.py \
    tests/test_gpu_wgmma_tma_split_k.py tests/test_gpu_wgmma_tma.py tests/test_gpu_gemm.py
timeout ${WAVE_S:-200} python3 scripts/variants_s42/probe_split_wave.py --dtype float16 > "$OUT/s42a_wave_float16.md" 2>&1
echo "wave rc $?"; cat "$OUT/s42a_wave_float16.md"
