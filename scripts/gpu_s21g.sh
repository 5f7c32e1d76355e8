#!/bin/bash
# twenty-first session: dmma_tail's GPU tests (the ones gpu_s21f.sh's timeout cut), then the
# float64 suite with the partial-tile kernel.
#   bash scripts/gpu_s21g.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 150 python3 -m pytest -q -m gpu -x tests/test_gpu_dmma_tail.py > "$OUT/tests_tail.log" 2>&1
echo "tests rc $?"; tail -2 "$OUT/tests_tail.log"
timeout 330 python3 benchmarks/shape_suite.py --dtypes float64 --rounds 2 --out "$OUT" > "$OUT/suite.txt" 2>&1
echo "suite rc $?"; grep -E "^\| |Geometric" "$OUT/suite.txt" | cut -d'|' -f3,5,6,7 | head -40
