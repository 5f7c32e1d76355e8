#!/bin/bash
# for the thirty-seventh session (written in the thirty-sixth; not run): after half_batch_pick
# (fb684e1) the GPU tests of every file that sends 16-bit batches through auto and that the
# thirty-sixth session did not run after the change (8 shards), a memcheck of the small-matrix
# batches, then two fresh batched draws (seeds 3504, 3505) against cuBLAS and the old route.
# DRAWS="" skips the draws (a call of tests and memcheck alone fits 600 s with TESTS_S=330).
# Cache (CPU): the precompiles gpu_s35a.sh names and batched_routes.py --precompile -> scratch/cubin_s32b
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
t0=$(date +%s)
NSHARD=8 SHARD_TIMEOUT=${TESTS_S:-300} scripts/gpu_shards.sh s37a_tests \
    tests/test_gpu_wgmma_tma_batched.py tests/test_gpu_wgmma_tma_general.py tests/test_gpu_layouts.py \
    tests/test_gpu_gemm.py tests/test_interop_gpu.py tests/test_robustness_gpu.py tests/test_gpu_core.py \
    tests/test_gpu_fast.py tests/test_gpu_precision.py \
    -k "not (test_gpu_layouts and not wgmma_tma and not mma_half)"
echo "GPU tests took $(( $(date +%s) - t0 )) s"
timeout 120 compute-sanitizer --tool memcheck --print-limit 5 python3 -m pytest -q -p no:cacheprovider -m gpu \
    tests/test_gpu_wgmma_tma_batched.py -k "small_matrix and float16" > "$OUT/s37a_memcheck.log" 2>&1
echo "memcheck rc $?"; tail -3 "$OUT/s37a_memcheck.log"
for seed in ${DRAWS-3504 3505}; do
  timeout 100 python3 scripts/variants_s35/probe_batched_draw.py $seed 16 > "$OUT/s37a_draw_$seed.md" 2>&1
  echo "draw $seed rc $?"; grep -vE "^\|---" "$OUT/s37a_draw_$seed.md" | cut -c1-150
done
