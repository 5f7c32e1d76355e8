#!/bin/bash
# thirty-sixth session: batched_routes.py (why batched 16-bit products of small matrices lose: auto's
# plan, its kernels, host cost, and the candidate routes side by side; seeds 3501 and 3502), then the
# GPU tests gpu_s35a.sh names in reverse file order (its run stopped every shard at ~55%, at the
# 200 s limit, with 1348 passed and none failed: the files it did not reach come first here).
# Cache (CPU): gpu_s35a.sh's three precompiles and batched_routes.py --precompile -> scratch/cubin_s32b
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
timeout 290 python3 scripts/variants_s36/batched_routes.py 3501,3502 16 > "$OUT/s36a_routes.txt" 2>&1
echo "routes rc $?"
t0=$(date +%s)
NSHARD=8 SHARD_TIMEOUT=${TESTS_S:-260} scripts/gpu_shards.sh s36a_tests \
    tests/test_gpu_layouts.py tests/test_gpu_narrow.py tests/test_gpu_precision.py tests/test_gpu_gemv_ax_mma.py \
    tests/test_gpu_mma_half_split_k.py tests/test_gpu_gemv_half.py tests/test_robustness_gpu.py \
    tests/test_interop_gpu.py tests/test_gpu_fast.py tests/test_gpu_core.py tests/test_gpu_gemm.py \
    tests/test_gpu_replay.py tests/test_gpu_half.py tests/test_gpu_wgmma_tma_split_k.py tests/test_gpu_wgmma_tma.py \
    tests/test_gpu_wgmma_tma_general.py tests/test_gpu_wgmma_tma_batched.py \
    -k "not (test_gpu_layouts and not wgmma_tma and not mma_half)"
echo "GPU tests took $(( $(date +%s) - t0 )) s"
grep -E "^##|^  (auto|old|host|cublas)|best|error|Error" "$OUT/s36a_routes.txt" | grep -v "kernels:" | cut -c1-200 | tail -100
