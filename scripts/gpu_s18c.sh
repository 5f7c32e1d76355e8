#!/bin/bash
# eighteenth session: wgmma_tma_split_k picked by auto (heuristic._tma_split_count) -- the GPU tests
# of the split rungs and the half auto tests, compute-sanitizer memcheck over the split workload's
# new cases, the new picks against the old ones with cuBLAS, then the 16-bit public suite.
#   bash scripts/gpu_s18c.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 300 python3 -m pytest -q -m gpu tests/test_gpu_wgmma_tma_split_k.py tests/test_gpu_mma_half_split_k.py \
    "tests/test_gpu_half.py::test_auto_runs_half_products" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -3 "$OUT/tests.log"
SAN_TIMEOUT=120 bash scripts/gpu_sanitize.sh memcheck scripts/sanitize_split.py wgmma_tma_split_k
timeout 300 python3 scripts/variants_s18/probe_tma_split_picks.py float16 bfloat16 > "$OUT/picks.txt" 2>&1
echo "picks rc $?"; grep -E "geometric|WRONG" "$OUT/picks.txt"
timeout 200 python3 benchmarks/shape_suite.py --dtypes float16,bfloat16 --out "$OUT" > "$OUT/suite16.log" 2>&1
echo "suite rc $?"; grep -E "Geometric" "$OUT/suite16.log"
