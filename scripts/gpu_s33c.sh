#!/bin/bash
# thirty-third session, call 3: heuristic.HALF_TMA_WAVE_GAIN — wgmma_tma's 128 x 128 tile where
# whole waves make it cheaper than 128 x 256 — on fresh random 16-bit products: a first draw per
# dtype to set the threshold, a second to hold it out (probe_half_waves.py; the float16 tuning draw
# first, then the held-out ones, so that a call cut short keeps what decides). Never ran: the
# session's device time ran out; run it with scripts/variants_s33/half_waves.patch applied.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
for run in "float16 3301" "float16 3302" "bfloat16 3304" "bfloat16 3303"; do
  set -- $run
  timeout 55 python3 scripts/variants_s33/probe_half_waves.py --dtype $1 --seed $2 --count 4 --near 1 \
    > "$OUT/s33c_waves_$1_$2.md" 2>&1; echo "$1 $2 rc $?"
  grep -E "^\| [0-9]|geometric|Error" "$OUT/s33c_waves_$1_$2.md" | cut -c1-150
done
timeout 30 python3 scripts/variants_s33/probe_half_waves.py --dtype float16 --seed 1 \
  --shapes 3000x2000x1536,3001x2999x3007,5000x3000x1000 > "$OUT/s33c_waves_fixed.md" 2>&1
echo "fixed rc $?"; grep -E "^\| [0-9]|Error" "$OUT/s33c_waves_fixed.md" | cut -c1-150
