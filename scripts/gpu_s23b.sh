#!/bin/bash
# twenty-third session, second device call: dmma_tail with its pairs-layout configs, on the GPU
# tests (every config: ragged, unaligned, integer, bit-for-bit against dmma, NaN/Inf) and under
# compute-sanitizer (memcheck, racecheck: sanitize_split.py's dmma_tail cases).
#   bash scripts/gpu_s23b.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export PYTHONPATH=.
timeout 330 python3 -m pytest -q -m gpu tests/test_gpu_dmma_tail.py > "$OUT/tests_tail.log" 2>&1
echo "== tail tests rc $?"; tail -3 "$OUT/tests_tail.log"
SAN_TIMEOUT=110 bash scripts/gpu_sanitize.sh memcheck,racecheck scripts/sanitize_split.py tail
grep " ok" "$OUT/sanitizer.log" | sort | uniq -c
