#!/usr/bin/env bash
# Verifies branch `tmalay` (written without device time): wgmma_tma_tf32 reads B column-major
# (a @ w.T) and row-major operands with a leading dimension in place (TMA maps over Bᵀ and the
# pitches); A column-major is still copied.
#   1. tests/test_gpu_wgmma_tma_tf32_layouts.py (configs x layouts x ragged shapes x pitches,
#      NaN-poisoned, pointers checked, no layout copy) and the layout suite's cases of this rung
#      (tests/test_gpu_layouts.py -k wgmma_tma_tf32), in shards (scripts/gpu_shards.sh), one
#      combined log ($OUT/tmalay_tests.log);
#   2. benchmarks/transposes.py for auto and wgmma_tma_tf32 (issue 14: a @ b.T within 10% of a @ b).
# What to look for: every shard "passed", no FAILED lines; in the table, the a @ b.T rows near a @ b.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=${NSHARD:-4}
echo "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>&1 | head -1)"
echo "TESTS (exit 124 = timed out):"
NSHARD=$NSHARD SHARD_TIMEOUT=200 scripts/gpu_shards.sh tmalay_tests tests/test_gpu_wgmma_tma_tf32_layouts.py \
    tests/test_gpu_layouts.py -k "wgmma_tma_tf32 or auto_reads_layouts"
timeout 150 python3 benchmarks/transposes.py --strategies auto,wgmma_tma_tf32 --repeat 10 > "$OUT/transposes.log" 2>&1
echo "BENCHMARK (exit $?):"
grep -E "Error|Traceback" "$OUT/transposes.log" | head -5
grep -E "^\||^##" "$OUT/transposes.log"
