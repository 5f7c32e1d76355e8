#!/bin/bash
# thirty-third session, call 1: hold out scripts/variants_s32/wgmma_tma_general.patch (applied to
# the work tree) on the GPU — its own tests (tests/test_gpu_wgmma_tma_general.py, 633) and the GPU
# tests of everything it touches (wgmma_tma, its split-K, tf32's layouts and pitch copy, 16-bit
# auto, tm.gemm and the layout tests of the TMA rungs), 4 shards side by side; then the general
# 16-bit calls against cuBLAS, float16 and bfloat16 (probe_half_general.py, six shapes).
# Cache (CPU): scripts/variants_s32/precompile_layouts.py, scripts/variants_s33/precompile_plain.py -> scratch/cubin_s32b
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
gpu_shards s33a 300 \
    tests/test_gpu_wgmma_tma_general.py tests/test_gpu_wgmma_tma.py tests/test_gpu_wgmma_tma_split_k.py \
    tests/test_gpu_wgmma_tma_tf32.py tests/test_gpu_wgmma_tma_tf32_layouts.py tests/test_gpu_half.py \
    "tests/test_gpu_layouts.py" "tests/test_gpu_gemm.py" -k "not (test_gpu_layouts and not wgmma_tma) and not (every_strategy and not wgmma_tma)"
for dt in float16 bfloat16; do
  forms=plain,a@bT,aT@b,aT@bT,out32; [ $dt = float16 ] && forms=$forms,bias+gelu
  timeout 100 python3 scripts/variants_s32/probe_half_general.py --dtype $dt --forms $forms \
    > "$OUT/s33a_half_general_$dt.md" 2>&1; echo "general $dt rc $?"
  grep -E "^\| [0-9]|geometric|Error" "$OUT/s33a_half_general_$dt.md" | cut -c1-140
done
