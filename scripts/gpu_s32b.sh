#!/bin/bash
# thirty-second session, call 2: wgmma_tma beyond the plain product — column-major operands read
# in place (A_COL / B_COL), a float32 C for out_dtype (out_bits=32), tm.gemm's epilogues: the GPU
# tests (tests/test_gpu_wgmma_tma_general.py in 4 shards side by side: NVRTC bounds it), wgmma_tma's
# own tests (the plain path), wgmma_tma_tf32's layout tests on pitches that are copied (its copy is
# now wgmma_tma.addressable_pitched), then the general 16-bit calls against cuBLAS again
# (gpu_s32a.sh's probe: layouts, float32 C, bias + GELU).
# Cache (CPU): scripts/variants_s32/precompile_layouts.py scratch/cubin_s32b
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPY_CACHE_DIR=$PWD/scratch/cubin_s32b
nvidia-smi --query-gpu=name --format=csv,noheader
for i in 0 1 2 3; do
  TM_SHARD=$i/4 timeout 300 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_wgmma_tma_general.py \
    > "$OUT/s32b_gpu_general_$i.log" 2>&1 &
done
wait
for i in 0 1 2 3; do tail -1 "$OUT/s32b_gpu_general_$i.log"; done
grep -hE "^E |^FAILED" "$OUT"/s32b_gpu_general_*.log | head -16
timeout 90 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_wgmma_tma.py > "$OUT/s32b_gpu_wgmma_tma.log" 2>&1
echo "wgmma_tma tests rc $?"; grep -E "^E |passed|failed" "$OUT/s32b_gpu_wgmma_tma.log" | head -6
timeout 90 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_wgmma_tma_tf32_layouts.py -k "ld+3" \
  > "$OUT/s32b_gpu_tf32_layouts_copied.log" 2>&1
echo "tf32 layout tests (copied pitches) rc $?"; grep -E "^E |passed|failed" "$OUT/s32b_gpu_tf32_layouts_copied.log" | head -6
timeout 150 python3 scripts/variants_s32/probe_half_general.py --dtype float16 --forms plain,a@bT,aT@b,aT@bT,out32,bias+gelu \
  > "$OUT/s32b_half_general_float16.md" 2>&1; echo "general float16 rc $?"
timeout 60 python3 scripts/variants_s32/probe_half_general.py --dtype bfloat16 --forms plain,a@bT,aT@b,aT@bT,out32,bias+gelu \
  --shapes 4096x4096x4096,3000x2000x1536 > "$OUT/s32b_half_general_bfloat16.md" 2>&1; echo "general bfloat16 rc $?"
for f in "$OUT"/s32b_half_general_*.md; do echo "== $(basename $f)"; grep -E "^\| [0-9]|geometric|Error" "$f" | cut -c1-120; done
