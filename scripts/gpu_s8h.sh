#!/usr/bin/env bash
# Eighth session, the closing GPU runs on the final code:
#   bash scripts/gpu_s8h.sh tests   # the GPU test files gpu_s8e.sh did not run -> $OUT/rest.log
#   bash scripts/gpu_s8h.sh bench   # the whole shape suite, both dtypes       -> $OUT/suite/shape_suite.md
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
case "${1:-tests}" in
    tests) NSHARD=8 SHARD_TIMEOUT=480 scripts/gpu_shards.sh rest tests/test_gpu_suite.py tests/test_gpu_core.py \
               tests/test_gpu_tune.py tests/test_gpu_bench.py tests/test_interop_gpu.py tests/test_gpu_dmma.py \
               tests/test_gpu_precision.py tests/test_gpu_half.py tests/test_gpu_wgmma_tma.py ;;
    bench) timeout 560 python3 benchmarks/shape_suite.py --out "$OUT/suite" > "$OUT/suite.txt" 2>&1
           echo "suite rc $?"; grep -E "Geometric" "$OUT/suite/shape_suite.md" ;;
esac
echo "== $(( $(date +%s) - T0 )) s"
