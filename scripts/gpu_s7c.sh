#!/usr/bin/env bash
# Seventh session: wgmma_tma_tf32 with the consumers' turns and two-step partial tiles (tf32x3):
#   1. probes, one process each, alternating: tf32x3 with A split to nearest (default) and with
#      A's big part truncated by the tensor core (TM_A_TRUNC=1); tf32 without and with turns
#      (TM_ORDERED_TF32=1)                                                   -> $OUT/probe.log
#   2. the rung's GPU tests, its layout cases, replay, and the precision tests  -> $OUT/tests.log
#   3. compute-sanitizer racecheck/synccheck/memcheck on tf32x3 (plain, A and B column-major)
#   bash scripts/gpu_s7c.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
for r in 1 2; do
    for t in 0 1; do
        TM_A_TRUNC=$t timeout 100 python3 scripts/probe_tf32x3.py --sizes 4096,8192,3001x2999x3007 \
            --label "x3 trunc$t run$r" --modes tf32x3 2>&1 | tee -a "$OUT/probe.log" | grep "^|"
    done
    for o in 0 1; do
        TM_ORDERED_TF32=$o timeout 100 python3 scripts/probe_tf32x3.py --sizes 4096,8192 \
            --label "tf32 ord$o run$r" --modes tf32 2>&1 | tee -a "$OUT/probe.log" | grep "^|"
    done
done
echo "== probes $(( $(date +%s) - T0 )) s"
NSHARD=8 SHARD_TIMEOUT=300 scripts/gpu_shards.sh tests tests/test_gpu_wgmma_tma_tf32.py \
    tests/test_gpu_wgmma_tma_tf32_layouts.py tests/test_gpu_layouts.py tests/test_gpu_replay.py tests/test_gpu_precision.py \
    -k "wgmma_tma_tf32 or replay or precision or tf32x3 or numerics"
echo "== tests $(( $(date +%s) - T0 )) s"
SAN_TIMEOUT=120 scripts/gpu_sanitize.sh racecheck,synccheck,memcheck scripts/probe_tf32x3.py \
    --sizes 300x260x200,129x257x1000 --modes tf32x3 --repeat 5
SAN_TIMEOUT=120 scripts/gpu_sanitize.sh racecheck,synccheck scripts/sanitize_tma_tf32.py --col a --nan
SAN_TIMEOUT=120 scripts/gpu_sanitize.sh racecheck,synccheck scripts/sanitize_tma_tf32.py --col b --nan
echo "== sanitizer $(( $(date +%s) - T0 )) s"
