#!/usr/bin/env bash
# Eleventh session, closing (H100): the whole shape suite on the final code, both dtypes; then the
# GPU tests of the suite, tuner and core files (every strategy, dmma's second kernel and
# dmma_split_k's new configs included), 8 shards.
#   bash scripts/gpu_s11f.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
timeout 330 python3 benchmarks/shape_suite.py --out "$OUT/suite" > "$OUT/suite.txt" 2>&1
echo "== suite rc $? $(( $(date +%s) - T0 )) s"; grep -E "Geometric" "$OUT/suite/shape_suite.md"
NSHARD=8 SHARD_TIMEOUT=200 bash scripts/gpu_shards.sh rest tests/test_gpu_suite.py tests/test_gpu_tune.py \
    tests/test_gpu_core.py
echo "== tests $(( $(date +%s) - T0 )) s"
grep -E "^\| [a-z]" "$OUT/suite/shape_suite.md" | cut -c1-150
