#!/bin/bash
# thirty-second session, call 1: (1) held out — the thirty-first session's candidate patch
# (variants_s31/half_tma_pad_small_tile.patch, applied in the tree): HALF_TMA_PAD_MIN_K's products on
# wgmma_tma's 128 x 64 tile, on fresh draws over the rule's whole class (N 300-16384); (2) 16-bit
# calls that are not plain row-major 2-D products (layouts, float32 C, batches, a fused epilogue:
# auto runs them on mma_half) against cuBLAS.
# Cache (CPU): probe_half_tma_short_k.py --narrow --n-hi 16384 --compile-only scratch/cubin_s32a
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPY_CACHE_DIR=$PWD/scratch/cubin_s32a
nvidia-smi --query-gpu=name --format=csv,noheader
for a in "bfloat16 3201" "float16 3202"; do set -- $a
  timeout 110 python3 scripts/variants_s31/probe_half_tma_short_k.py --dtype $1 --seed $2 --count 10 --narrow --n-hi 16384 \
    > "$OUT/s32a_small_tile_heldout_$1_$2.md" 2>&1; echo "held-out $1 rc $?"
done
timeout 200 python3 scripts/variants_s32/probe_half_general.py --dtype float16 > "$OUT/s32a_half_general_float16.md" 2>&1
echo "general float16 rc $?"
timeout 90 python3 scripts/variants_s32/probe_half_general.py --dtype bfloat16 --forms plain,a@bT,aT@b,batch8 \
  --shapes 4096x4096x4096,2048x2048x2048 > "$OUT/s32a_half_general_bfloat16.md" 2>&1
echo "general bfloat16 rc $?"
for f in "$OUT"/s32a_small_*.md; do echo "== $(basename $f)"; grep -E "geometric|failed|Error" "$f"; done
for f in "$OUT"/s32a_half_general_*.md; do echo "== $(basename $f)"; grep -E "^\| [0-9]|geometric|Error" "$f" | cut -c1-110; done
