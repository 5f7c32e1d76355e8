#!/usr/bin/env bash
# Fourteenth session (H100), final checks: the GPU tests of every file the session touched, the
# suite file (auto correct on every suite shape), compute-sanitizer memcheck and racecheck over
# scripts/sanitize_split.py (with the half rungs), and the random sweep of every float dtype
# (seeds 14 and 15) for the record, collected in one file. Two calls (each within a run's 10 minutes):
#   bash scripts/gpu_s14h.sh tests; bash scripts/gpu_s14h.sh race; bash scripts/gpu_s14h.sh sweep
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
part=${1:-tests}
if [ "$part" = race ]; then  # racecheck over the half rungs' cases alone (the whole run passed 100 s)
    SAN_TIMEOUT=240 bash scripts/gpu_sanitize.sh racecheck scripts/sanitize_split.py half
    exit 0
fi
if [ "$part" = tests ]; then
NSHARD=6 SHARD_TIMEOUT=360 bash scripts/gpu_shards.sh final tests/test_gpu_gemv_half.py tests/test_gpu_mma_half_split_k.py \
    tests/test_gpu_half.py tests/test_gpu_gemv.py tests/test_gpu_split_reduce.py tests/test_gpu_suite.py \
    tests/test_gpu_wgmma_tma_tf32.py -k "not every_config_on_skinny"
SAN_TIMEOUT=100 bash scripts/gpu_sanitize.sh memcheck,racecheck scripts/sanitize_split.py
exit 0
fi
for seed in 14 15; do
    for lo in 1 256; do
        timeout 150 python3 benchmarks/random_shapes.py --count 24 --seed $seed --lo $lo \
            --dtypes float32,float64,float16,bfloat16 --out "$OUT/sweep" > /dev/null 2>&1
        mv "$OUT/sweep/random_shapes_lo$lo.md" "$OUT/sweep/seed${seed}_lo$lo.md"
    done
done
cat "$OUT"/sweep/seed*.md > "$OUT/random_shapes_final.md"; rm -rf "$OUT/sweep"
grep -E "geometric|^GPU" "$OUT/random_shapes_final.md"
