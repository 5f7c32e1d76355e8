#!/bin/bash
# thirty-third session, call 2: the 72 bfloat16 layout tests of wgmma_tma that failed in call 1 on
# the test's own np.finfo(bfloat16) (numpy 2.5 refuses it; tests/test_gpu_gemm.assert_close now
# asks ml_dtypes), then wgmma_tma's configs on the transposed 16-bit forms (sweep_layouts.py).
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
for i in 0 1 2 3; do
  TM_SHARD=$i/4 timeout 200 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_layouts.py -k "wgmma_tma and bfloat16" \
    > "$OUT/s33b_gpu_$i.log" 2>&1 &
done
wait
for i in 0 1 2 3; do tail -1 "$OUT/s33b_gpu_$i.log"; done
grep -hE "^E |^FAILED" "$OUT"/s33b_gpu_*.log | head -12
timeout 330 python3 scripts/variants_s33/sweep_layouts.py > "$OUT/s33b_sweep_float16.md" 2>&1; echo "sweep rc $?"
cat "$OUT/s33b_sweep_float16.md" | cut -c1-260
