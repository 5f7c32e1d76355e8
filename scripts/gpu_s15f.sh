#!/bin/bash
# fifteenth session, final checks of gemv_ax_mma: its GPU tests and the half files' (auto picks),
# memcheck and racecheck over its sanitize cases, and the random sweep of the half dtypes (seeds 14
# and 15 from 1, as the fourteenth session's tables) with the new rule.
#   bash scripts/gpu_s15f.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=4 SHARD_TIMEOUT=400 bash scripts/gpu_shards.sh s15f_tests tests/test_gpu_gemv_ax_mma.py tests/test_gpu_half.py \
    tests/test_gpu_gemv_half.py -k "not torch"
SAN_TIMEOUT=300 bash scripts/gpu_sanitize.sh memcheck,racecheck scripts/sanitize_split.py gemv_ax_mma
grep -E "nvjet|tm_|reduce_" "$OUT/sanitizer.log" | grep -E "Race|Error" | sed 's/+0x[0-9a-f]*//' | sort | uniq -c | head
for seed in 15 14; do
    timeout 400 python3 benchmarks/random_shapes.py --count 24 --seed $seed --lo 1 --dtypes float16,bfloat16 \
        --max-gflop 200 --rounds 3 --out "$OUT/sweep$seed" > "$OUT/sweep$seed.txt" 2>&1
    echo "sweep $seed rc $?"; grep -iE "geometric|lowest" "$OUT/sweep$seed.txt" | head -6
done
