#!/usr/bin/env bash
# After merging the half, tma, layout and cost branches: the GPU tests of everything they touched,
# in NSHARD pytest processes side by side (scripts/gpu_shards.sh: one combined log, $OUT/tests.log),
# then a summary.
#   bash scripts/gpu_integration.sh tests     # ~8 min on an H100
#   bash scripts/gpu_integration.sh bench     # dmma, transposes, half probe, cost-model check
# Logs under $OUT.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=${NSHARD:-6}
if [ "${1:-tests}" = tests ]; then
    FILES="tests/test_gpu_half.py tests/test_gpu_wgmma_tma.py tests/test_gpu_layouts.py tests/test_gpu_gemm.py tests/test_gpu_dmma.py tests/test_gpu_core.py tests/test_gpu_precision.py tests/test_interop_gpu.py tests/test_robustness_gpu.py"
    NSHARD=$NSHARD SHARD_TIMEOUT=${LIMIT:-520} scripts/gpu_shards.sh tests $FILES -rs
else
    timeout 100 python3 benchmarks/dmma.py --sizes 2048,4096,8192 --configs default --out "$OUT" > "$OUT/dmma.log" 2>&1
    timeout 150 python3 benchmarks/transposes.py --repeat 10 > "$OUT/transposes.log" 2>&1
    timeout 100 python3 scripts/probe_half.py --out "$OUT/probe_half.json" > "$OUT/probe_half.log" 2>&1
    timeout 200 python3 scripts/validate_cost_model.py --quick --out "$OUT" > "$OUT/cost.log" 2>&1
    grep -E "cuBLAS|auto|dmma bm" "$OUT/dmma.log" | cut -c1-150
    tail -22 "$OUT/transposes.log"; tail -12 "$OUT/probe_half.log"; tail -25 "$OUT/cost.log"
fi
