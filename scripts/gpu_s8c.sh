#!/usr/bin/env bash
# Eighth session: the reduce kernel's lanes, coalesced (lane-major blocks, sums through shared
# memory). Split products' time by part (GEMV, long K, small cubes), the suite's split-heavy
# classes, then the GPU tests of the lanes and every split rung.
#   bash scripts/gpu_s8c.sh     -> $OUT/probe_split.txt, $OUT/suite/shape_suite.md, $OUT/split.log
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
timeout 200 python3 scripts/probe_gemv_split.py > "$OUT/probe_split.txt" 2>&1; echo "probe rc $?"
timeout 200 python3 benchmarks/shape_suite.py --classes "long K;small;gemv" --out "$OUT/suite" > "$OUT/suite.txt" 2>&1; echo "suite rc $?"
echo "== probes $(( $(date +%s) - T0 )) s"
NSHARD=8 SHARD_TIMEOUT=170 scripts/gpu_shards.sh split tests/test_gpu_split_reduce.py tests/test_gpu_gemv.py \
    tests/test_gpu_wgmma_split_k.py tests/test_gpu_dmma_split_k.py tests/test_gpu_fast.py
echo "== $(( $(date +%s) - T0 )) s"
grep -v "slices kernel alone, \(16\|64\)" "$OUT/probe_split.txt"
grep -A40 "### float32" "$OUT/suite/shape_suite.md" | grep -E "long K|small|gemv|Geometric"
grep -A40 "### float64" "$OUT/suite/shape_suite.md" | grep -E "long K|small|gemv|Geometric"
