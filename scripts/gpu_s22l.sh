#!/bin/bash
# twenty-second session, twelfth device call: test_gpu_core.py's dmma cases cut by gpu_s22f.sh's
# timeout (the pairs configs' and dmma_split_k's ragged shapes: per-element error against cuBLAS's,
# NaN-poisoned outputs).
#   bash scripts/gpu_s22l.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 420 python3 -m pytest -q -m gpu -ra tests/test_gpu_core.py -k "dmma and (pairs1 or split_k or float64)" > "$OUT/tests_core.log" 2>&1
echo "== core rc $?"; tail -3 "$OUT/tests_core.log"
