#!/bin/bash
# thirty-sixth session: 16-bit batches of small matrices on wgmma_tma's batched launch
# (heuristic.half_batch_pick, from batched_routes.py's 32 draws). The draw of gpu_s35a.sh again
# (seed 3501, before: float16 0.694 / bfloat16 0.888 x cuBLAS) and a fresh one (seed 3503, held
# out), where a batched call's host time goes (host_profile.py), then the GPU tests of 16-bit
# batches and of what routes them (8 shards).
# Cache (CPU): gpu_s35a.sh's three precompiles and batched_routes.py --precompile -> scratch/cubin_s32b
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
for seed in 3501 3503; do
  timeout 110 python3 scripts/variants_s35/probe_batched_draw.py $seed 16 > "$OUT/s36b_draw_$seed.md" 2>&1
  echo "draw $seed rc $?"
done
timeout 60 python3 scripts/variants_s36/host_profile.py > "$OUT/s36b_host_profile.txt" 2>&1
echo "host profile rc $?"
t0=$(date +%s)
NSHARD=8 SHARD_TIMEOUT=${TESTS_S:-230} scripts/gpu_shards.sh s36b_tests \
    tests/test_gpu_wgmma_tma_batched.py tests/test_gpu_half.py tests/test_gpu_replay.py tests/test_interop_gpu.py \
    tests/test_robustness_gpu.py tests/test_gpu_core.py tests/test_gpu_layouts.py \
    -k "not (test_gpu_layouts and not wgmma_tma and not mma_half)"
echo "GPU tests took $(( $(date +%s) - t0 )) s"
for seed in 3501 3503; do grep -vE "^\|---" "$OUT/s36b_draw_$seed.md" | cut -c1-150; done
grep -E "^##" "$OUT/s36b_host_profile.txt"
