#!/bin/bash
# for the thirty-eighth session (written in the thirty-seventh; not run): 16-bit skinny products
# whose streamed operand's rows are unaligned (probe_skinny_unaligned.py: auto, wgmma_tma with its
# padding copies, mma_half in place, mma_half_split_k, cuBLAS), float16 then bfloat16.
# Cache (CPU): probe_skinny_unaligned.py --compile-only scratch/cubin_s32b (each --dtype)
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
for dt in float16 bfloat16; do
  timeout 200 python3 scripts/variants_s37/probe_skinny_unaligned.py --dtype $dt > "$OUT/s38b_skinny_$dt.md" 2>&1
  echo "probe $dt rc $?"; grep -vE "^\|---" "$OUT/s38b_skinny_$dt.md" | cut -c1-220
done
