#!/usr/bin/env bash
# Fifth session, fifth GPU run (after wgmma_tma_tf32's default went to stages=4): the rung's GPU
# tests (plain, epilogues, layouts), the layout suite's cases of it, and benchmarks/transposes.py
# (auto and the rung; float32 and float64). Logs under $OUT.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
echo "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>&1 | head -1)"
NSHARD=6 SHARD_TIMEOUT=300 scripts/gpu_shards.sh tma_tf32_tests tests/test_gpu_wgmma_tma_tf32.py \
    tests/test_gpu_wgmma_tma_tf32_layouts.py tests/test_gpu_layouts.py tests/test_gpu_replay.py \
    -k "wgmma_tma_tf32 or replay"
timeout 200 python3 benchmarks/transposes.py --strategies auto,wgmma_tma_tf32 --repeat 10 > "$OUT/transposes.log" 2>&1
echo "transposes rc=$?"
grep -E "Error|Traceback" "$OUT/transposes.log" | head -5
grep -E "^\| (float|dtype)" "$OUT/transposes.log" | tail -13
