#!/bin/bash
# twenty-second session, tenth device call: the new GPU test of an epilogue on a pairs bucket,
# dmma_split_k's tests of its pairs configs (the layout test mended after gpu_s22i.sh) and the two
# cut by earlier timeouts, dmma's GEMM tests, then the whole public suite (both dtypes, 2 rounds).
#   bash scripts/gpu_s22j.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 60 python3 -m pytest -q -m gpu -ra tests/test_gpu_dmma.py -k pairs_bucket > "$OUT/tests_pairs_bucket.log" 2>&1
echo "== pairs bucket rc $?"; tail -2 "$OUT/tests_pairs_bucket.log"
timeout 170 python3 -m pytest -q -m gpu -ra tests/test_gpu_dmma_split_k.py -k "heuristic or suite_shapes or pairs1" > "$OUT/tests_split.log" 2>&1
echo "== split rc $?"; tail -2 "$OUT/tests_split.log"
timeout 110 python3 -m pytest -q -m gpu -ra tests/test_gpu_gemm.py -k dmma > "$OUT/tests_gemm.log" 2>&1
echo "== gemm -k dmma rc $?"; tail -2 "$OUT/tests_gemm.log"
timeout 200 python3 benchmarks/shape_suite.py --rounds 2 --out "$OUT" > "$OUT/suite.txt" 2>&1
echo "== suite rc $?"; grep -E "Geometric" "$OUT/suite.txt"; grep -E "^\| [a-z]" "$OUT/suite.txt" | grep -v "^| class" | awk -F'|' '$7+0 < 1.0 {print $2 "|" $3 "|" $7 "|" $10}'
