#!/bin/bash
# thirty-seventh session, second call: the batched draws gpu_s37a.sh leaves out with DRAWS=""
# (seeds 3504, 3505: auto against cuBLAS's batched GEMM and the old route), then fresh random
# 2-D draws through auto against cuBLAS (benchmarks/random_shapes.py: seed 3701 float32/float64,
# seed 3702 float16/bfloat16, 24 shapes each, --lo 1), every row validated before it is timed.
# Cache (CPU): gpu_s37a.sh's, then precompile_auto.py scratch/cubin_s32b 3701 24 1 float32,float64
# and 3702 24 1 float16,bfloat16
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
for seed in 3504 3505; do
  timeout 100 python3 scripts/variants_s35/probe_batched_draw.py $seed 16 > "$OUT/s37b_draw_$seed.md" 2>&1
  echo "draw $seed rc $?"
done
timeout 170 python3 benchmarks/random_shapes.py --count 24 --seed 3701 --lo 1 --dtypes float32,float64 \
  --out "$OUT/s37b_random_3701" > "$OUT/s37b_random_3701.log" 2>&1; echo "random 3701 rc $?"
timeout 150 python3 benchmarks/random_shapes.py --count 24 --seed 3702 --lo 1 --dtypes float16,bfloat16 \
  --out "$OUT/s37b_random_3702" > "$OUT/s37b_random_3702.log" 2>&1; echo "random 3702 rc $?"
for seed in 3504 3505; do echo "== batched $seed"; grep -iE "geometric|lowest" "$OUT/s37b_draw_$seed.md" | cut -c1-200; done
for seed in 3701 3702; do echo "== random $seed"; grep -iE "geometric|lowest" "$OUT/s37b_random_$seed/random_shapes_lo1.md" | cut -c1-200; done
