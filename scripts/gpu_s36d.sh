#!/bin/bash
# thirty-sixth session: the padding copies launched through cuLaunchKernel with packed arguments
# (pad._launch; a RawKernel call's argument handling was ~25 us of host time per copy). The host
# profile again (before: 30.4 / 84.2 / 83.9 / 64.5 us per call, gpu_s36c.sh), then the GPU tests of
# every rung that pads (wgmma_tma 2-D, batched, split-K; wgmma_tma_tf32; gemv_xb_tma; mma_half_split_k)
# and of the calls that reach them, 8 shards.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
timeout 40 python3 scripts/variants_s36/host_profile.py > "$OUT/s36d_host_profile.txt" 2>&1
echo "host profile rc $?"; grep -E "^##" "$OUT/s36d_host_profile.txt"
t0=$(date +%s)
NSHARD=8 SHARD_TIMEOUT=${TESTS_S:-290} scripts/gpu_shards.sh s36d_tests \
    tests/test_gpu_wgmma_tma.py tests/test_gpu_mma_half_split_k.py tests/test_gpu_wgmma_tma_split_k.py \
    tests/test_gpu_wgmma_tma_tf32.py tests/test_gpu_half.py tests/test_gpu_gemv.py tests/test_gpu_replay.py \
    tests/test_robustness_gpu.py tests/test_interop_gpu.py tests/test_gpu_wgmma_tma_batched.py \
    tests/test_gpu_wgmma_tma_tf32_layouts.py tests/test_gpu_wgmma_tma_general.py
echo "GPU tests took $(( $(date +%s) - t0 )) s"
