#!/bin/bash
# thirty-fifth session (never ran: the device time left could not start a machine), the short form of
# gpu_s35a.sh:
# wgmma_tma's batch tests in full and the GPU tests of what the change touches most directly
# (split-K's launcher, 16-bit auto, replays, tm.gemm), 8 shards within 100 s; then the first rows of
# the held-out batched draw (probe_batched_draw.py) within 25 s.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
t0=$(date +%s)
NSHARD=8 SHARD_TIMEOUT=100 scripts/gpu_shards.sh s35b_tests \
    tests/test_gpu_wgmma_tma_batched.py tests/test_gpu_wgmma_tma.py tests/test_gpu_wgmma_tma_split_k.py \
    tests/test_gpu_half.py tests/test_gpu_replay.py tests/test_gpu_gemm.py tests/test_gpu_core.py
echo "GPU tests took $(( $(date +%s) - t0 )) s"
timeout 25 python3 scripts/variants_s35/probe_batched_draw.py 3501 10 > "$OUT/s35b_batched_draw.md" 2>&1
echo "draw rc $?"; grep -vE "^\|---" "$OUT/s35b_batched_draw.md" | cut -c1-150
