#!/bin/bash
# twenty-second session, fifth device call: the float64 GPU tests of dmma (its search space now
# holds the pairs layout's five configs) and dmma_tail.
#   bash scripts/gpu_s22e.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 470 python3 -m pytest -q -m gpu -x -ra tests/test_gpu_dmma.py > "$OUT/tests_dmma.log" 2>&1
echo "== test_gpu_dmma rc $?"; tail -4 "$OUT/tests_dmma.log"
timeout 100 python3 -m pytest -q -m gpu -x tests/test_gpu_dmma_tail.py > "$OUT/tests_tail.log" 2>&1
echo "== test_gpu_dmma_tail rc $?"; tail -3 "$OUT/tests_tail.log"
