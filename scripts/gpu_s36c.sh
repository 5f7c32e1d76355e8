#!/bin/bash
# thirty-sixth session, the short form of gpu_s36b.sh (device time ran low after failed starts):
# the two batched draws (seed 3501 again, 3503 held out) within 85 s each, the host profile within
# 40 s, then the batch tests that route through half_batch_pick and 16-bit batches' GPU tests
# within 140 s (8 shards).
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
for seed in 3501 3503; do
  timeout 85 python3 scripts/variants_s35/probe_batched_draw.py $seed 14 > "$OUT/s36c_draw_$seed.md" 2>&1
  echo "draw $seed rc $?"
done
timeout 40 python3 scripts/variants_s36/host_profile.py > "$OUT/s36c_host_profile.txt" 2>&1
echo "host profile rc $?"
NSHARD=8 SHARD_TIMEOUT=140 scripts/gpu_shards.sh s36c_tests \
    tests/test_gpu_wgmma_tma_batched.py tests/test_gpu_half.py tests/test_gpu_replay.py \
    -k "small_matrix or auto or test_gpu_half or test_gpu_replay or default"
for seed in 3501 3503; do grep -vE "^\|---" "$OUT/s36c_draw_$seed.md" | cut -c1-150; done
grep -E "^##" "$OUT/s36c_host_profile.txt"
