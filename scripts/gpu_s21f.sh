#!/bin/bash
# twenty-first session: dmma's partial-tile kernel (EDGE_KERNEL): the float64 DMMA GPU tests, and
# compute-sanitizer memcheck and racecheck over sanitize_split.py's dmma cases.
#   bash scripts/gpu_s21f.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 330 python3 -m pytest -q -m gpu -x tests/test_gpu_dmma.py tests/test_gpu_dmma_split_k.py \
    tests/test_gpu_dmma_tail.py > "$OUT/tests_dmma.log" 2>&1
echo "tests rc $?"; tail -4 "$OUT/tests_dmma.log"
SAN_TIMEOUT=120 bash scripts/gpu_sanitize.sh memcheck,racecheck scripts/sanitize_split.py dmma
grep -c "ok" "$OUT/sanitizer.log"
