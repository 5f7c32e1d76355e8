#!/bin/bash
# thirty-fifth session (never ran: no machine could be had): batches on wgmma_tma (shipped in d64bf3d),
# after gpu_s34a.sh's run (numerics all passed, memcheck clean; 44 test expectations fixed: a shared B
# folds the batch into one 2-D product also for a column-major B or single-row A; test_gpu_half's
# HALF list leaves wgmma_tma to its own files; one shard stopped at --maxfail). The GPU tests of
# everything the change touches or that sends 16-bit batches through auto (8 shards); then a held-out
# draw of batched shapes against cuBLAS and the old route (probe_batched_draw.py).
# Cache (CPU): the three precompiles named in gpu_s34a.sh -> scratch/cubin_s32b
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
t0=$(date +%s)
NSHARD=8 SHARD_TIMEOUT=200 scripts/gpu_shards.sh s35a_tests \
    tests/test_gpu_wgmma_tma_batched.py tests/test_gpu_wgmma_tma_general.py tests/test_gpu_wgmma_tma.py \
    tests/test_gpu_wgmma_tma_split_k.py tests/test_gpu_half.py tests/test_gpu_replay.py tests/test_gpu_gemm.py \
    tests/test_gpu_core.py tests/test_gpu_fast.py tests/test_interop_gpu.py tests/test_robustness_gpu.py \
    tests/test_gpu_gemv_half.py tests/test_gpu_mma_half_split_k.py tests/test_gpu_gemv_ax_mma.py \
    tests/test_gpu_precision.py tests/test_gpu_narrow.py tests/test_gpu_layouts.py \
    -k "not (test_gpu_layouts and not wgmma_tma and not mma_half)"
echo "GPU tests took $(( $(date +%s) - t0 )) s"
timeout 80 python3 scripts/variants_s35/probe_batched_draw.py 3501 16 > "$OUT/s35a_batched_draw.md" 2>&1
echo "draw rc $?"; grep -vE "^\|---" "$OUT/s35a_batched_draw.md" | cut -c1-150
