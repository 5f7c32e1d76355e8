#!/bin/bash
# thirty-fourth session (ran in the thirty-fifth, H200, with scripts/variants_s34/wgmma_tma_batched.patch
# applied; results/h200/session35/; the change shipped in d64bf3d): wgmma_tma's batches (one launch over every matrix's tiles, 3-D
# tensor maps) — its GPU tests (tests/test_gpu_wgmma_tma_batched.py), the GPU tests of what the
# change touches (wgmma_tma plain and general, its split-K's launcher, 16-bit auto and batches,
# tm.gemm and the layout tests on wgmma_tma, replays), 4 shards side by side; memcheck on a few
# batched cases; then batched float16 products against cuBLAS (probe_half_batched.py).
# Cache (CPU): scripts/variants_s32/precompile_layouts.py, scripts/variants_s33/precompile_plain.py,
# scripts/variants_s34/precompile_batched.py -> scratch/cubin_s32b
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
gpu_shards s34a 330 \
    tests/test_gpu_wgmma_tma_batched.py tests/test_gpu_wgmma_tma_general.py tests/test_gpu_wgmma_tma.py \
    tests/test_gpu_wgmma_tma_split_k.py tests/test_gpu_half.py tests/test_gpu_replay.py \
    tests/test_gpu_layouts.py tests/test_gpu_gemm.py -k "not (test_gpu_layouts and not wgmma_tma) and not (every_strategy and not wgmma_tma)"
F=tests/test_gpu_wgmma_tma_batched.py
timeout 90 compute-sanitizer --tool memcheck --print-limit 5 python3 -m pytest -q -p no:cacheprovider \
  "$F::test_batch_in_one_launch[default-aT@bT-(127, 129, 33)-odd-float16]" \
  "$F::test_batch_in_one_launch[bm128_bn64_stages8-aT@b-(300, 260, 96)-both-bfloat16]" \
  "$F::test_batch_in_one_launch[bm128_bn256_stages3_cluster_m2-a@bT-(129, 127, 300)-shared_a-bfloat16]" \
  "$F::test_batched_epilogue[shape2-pair2-float32-False-float16]" "$F::test_batched_epilogue[shape3-pair3-None-True-float16]" \
  > "$OUT/s34a_memcheck.log" 2>&1; echo "memcheck rc $?"; grep -E "ERROR SUMMARY|passed|failed" "$OUT/s34a_memcheck.log" | tail -3
timeout 150 python3 scripts/variants_s34/probe_half_batched.py > "$OUT/s34a_half_batched.md" 2>&1; echo "batched rc $?"
grep -E "^\| [0-9]|Error|error" "$OUT/s34a_half_batched.md" | cut -c1-160
