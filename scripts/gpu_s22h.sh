#!/bin/bash
# twenty-second session, eighth device call: compute-sanitizer (memcheck, racecheck) over the pairs
# layout's cases of sanitize_split.py, dmma_split_k with and without the pairs layout
# (probe_pairs_split.py), and dmma_split_k's GPU tests (cut by gpu_s22f.sh's timeout at 92 passed).
#   bash scripts/gpu_s22h.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
SAN_TIMEOUT=100 bash scripts/gpu_sanitize.sh memcheck,racecheck scripts/sanitize_split.py pairs
grep -c " ok" "$OUT/sanitizer.log"
PYTHONPATH=. timeout 120 python3 scripts/variants_s22/probe_pairs_split.py 3 > "$OUT/pairs_split.txt" 2>&1
echo "== split probe rc $?"; cat "$OUT/pairs_split.txt"
timeout 300 python3 -m pytest -q -m gpu -ra tests/test_gpu_dmma_split_k.py > "$OUT/tests_split.log" 2>&1
echo "== test_gpu_dmma_split_k rc $?"; tail -3 "$OUT/tests_split.log"
