#!/bin/bash
# twenty-second session, ninth device call: compute-sanitizer (memcheck, racecheck) over the pairs
# layout's cases of sanitize_split.py (gpu_s22h.sh ran it without PYTHONPATH); retune the two split
# buckets the pairs layout's split tiles ran faster (128x8192x8192, 256x256x131072) over
# dmma_split_k into a copy of the shipped database, then the suite's compute-bound and long-K
# float64 rows with both databases (gpu_retune.sh); dmma_split_k's GPU tests of its pairs configs;
# auto on transposed operands (a pairs pick gives way to a config that reads them in place).
#   bash scripts/gpu_s22i.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
SAN_TIMEOUT=100 bash scripts/gpu_sanitize.sh memcheck,racecheck scripts/sanitize_split.py pairs
grep -c " ok" "$OUT/sanitizer.log"
timeout 150 python3 -m pytest -q -m gpu -ra tests/test_gpu_dmma_split_k.py -k pairs1 > "$OUT/tests_split_pairs.log" 2>&1
echo "== test_gpu_dmma_split_k -k pairs1 rc $?"; tail -3 "$OUT/tests_split_pairs.log"
timeout 90 python3 -m pytest -q -m gpu -ra tests/test_gpu_layouts.py -k "auto_reads_layouts or batched_transposed" > "$OUT/tests_auto_layouts.log" 2>&1
echo "== auto layouts rc $?"; tail -3 "$OUT/tests_auto_layouts.log"
RUNS=1 TUNE_TIMEOUT=150 bash scripts/gpu_retune.sh float64 dmma_split_k "compute;long" 128x8192x8192 256x256x131072
