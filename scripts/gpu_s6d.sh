#!/usr/bin/env bash
# Sixth session, on one Hopper GPU:
#   1. scripts/probe_small.py (float64 256^3, 512^3): host us per split product after the
#      host-path changes                                                        -> $OUT/probe.log
#   2. tiled-matmul tune over dmma + dmma_split_k for 16384x64x4096 and 64x8192x8192 float64
#      into a copy of the shipped database                     -> $OUT/tuned_h100.json, tune_f64.json
#   3. the GPU tests of the split-K rungs and the GEMV rungs (every search-space config, the
#      reduce launched by compile.ReduceLauncher)                               -> $OUT/tests.log
#   bash scripts/gpu_s6d.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
python3 scripts/probe_small.py --shapes 256,512 > "$OUT/probe.log" 2>&1; cat "$OUT/probe.log"
cp tiled_matmul/data/tuned_h100.json "$OUT/tuned_h100.json"
timeout 120 python3 -m tiled_matmul tune -s 16384x64x4096 64x8192x8192 -d float64 --json "$OUT/tune_f64.json" \
    --strategies dmma,dmma_split_k --db "$OUT/tuned_h100.json" -q > "$OUT/tune.log" 2>&1
echo "== tune rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^│ [0-9]" "$OUT/tune.log" | cut -c1-150
NSHARD=${NSHARD:-8} SHARD_TIMEOUT=300 scripts/gpu_shards.sh tests \
    tests/test_gpu_dmma_split_k.py tests/test_gpu_wgmma_split_k.py tests/test_gpu_gemv.py
echo "== total $(( $(date +%s) - T0 )) s"
