#!/bin/bash
# twenty-third session, ninth device call: dmma_tail's whole GPU test file on the final code
# (every config, the two pairs ones included, after the tail-shape helper's fix).
#   bash scripts/gpu_s23i.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
PYTHONPATH=. timeout 200 python3 -m pytest -q -m gpu tests/test_gpu_dmma_tail.py > "$OUT/tests_tail.log" 2>&1
echo "== tail tests rc $?"; tail -3 "$OUT/tests_tail.log"
