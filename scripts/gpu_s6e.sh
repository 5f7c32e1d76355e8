#!/usr/bin/env bash
# Sixth session, the closing run on one Hopper GPU:
#   1. the reduce-launching tests gpu_s6d.sh's slow shards did not reach: gemv determinism,
#      non-default streams, unaligned operands, NaN/Inf; split strategies with epilogues and
#      batches (compile.ReduceLauncher and ExLaunch.reduce_launcher); the split_k rung
#                                                                               -> $OUT/tests.log
#   2. benchmarks/shape_suite.py, both dtypes, on the shipped database as committed
#                                                            -> $OUT/suite.log, $OUT/shape_suite.md
#   bash scripts/gpu_s6e.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
NSHARD=${NSHARD:-8} SHARD_TIMEOUT=240 scripts/gpu_shards.sh tests \
    tests/test_gpu_gemv.py tests/test_gpu_gemm.py tests/test_gpu_core.py -k "deterministic or stream or unaligned or nan or split"
echo "== tests $(( $(date +%s) - T0 )) s"
timeout 300 python3 benchmarks/shape_suite.py --out "$OUT" > "$OUT/suite.log" 2>&1
echo "== suite rc=$? $(( $(date +%s) - T0 )) s"
grep -E "Geometric|^\| small" "$OUT/suite.log" | cut -c1-200
