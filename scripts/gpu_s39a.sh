#!/bin/bash
# for the thirty-ninth session (written in the thirty-eighth; not run): heuristic.HALF_NARROW_C
# (e454f06) through auto: held-out draws (probe_narrow_heldout.py, seeds 3901 and 3902, both
# 16-bit dtypes: auto against the 128 x 256 tile clustered and alone, and cuBLAS), then the GPU
# tests of the 16-bit auto picks (test_gpu_half, test_gpu_wgmma_tma*) in 8 shards.
# Cache (CPU): probe_narrow_heldout.py --seed S --dtype D --compile-only scratch/cubin_s32b (done).
# About 400 s with TESTS_S=200.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
for seed in 3901 3902; do
  for dt in float16 bfloat16; do
    timeout 100 python3 scripts/variants_s38/probe_narrow_heldout.py --seed $seed --dtype $dt \
      > "$OUT/s39a_narrow_${seed}_$dt.md" 2>&1
    echo "draw $seed $dt rc $?"; grep -E "^auto|^256" "$OUT/s39a_narrow_${seed}_$dt.md"
  done
done
NSHARD=8 SHARD_TIMEOUT=${TESTS_S:-200} scripts/gpu_shards.sh s39a_tests \
    tests/test_gpu_half.py tests/test_gpu_wgmma_tma.py tests/test_gpu_wgmma_tma_general.py
