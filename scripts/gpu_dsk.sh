#!/usr/bin/env bash
# dmma_split_k (float64 split-K on the FP64 tensor cores) on one Hopper GPU, in under 8 minutes:
#   1. its GPU tests (tests/test_gpu_dmma_split_k.py whole; the dmma_split_k cases of the files that
#      loop over every rung: core, gemm epilogues and batches, layouts, in NSHARD pytest processes
#      side by side (scripts/gpu_shards.sh); then robustness's) -> $OUT/tests.log
#   2. float64 auto (as shipped), the cost model's and the heuristic's picks, and every
#      dmma_split_k config against cuBLAS DGEMM on the float64 small, long-K and decode shapes plus
#      1024^3 and 2048^3 (benchmarks/dmma_split_k.py)                  -> $OUT/bench.log, $OUT/dmma_split_k.json
# A short table last. Env: NSHARD (default 4), OUT (default /tmp/out).
#   bash scripts/gpu_dsk.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=${NSHARD:-4}
T0=$(date +%s)
TMP=$(mktemp -d)

# 1. GPU tests (200 s at most), then the >2^31-element ones alone (17 GB operands: not beside
#    other shards on one GPU; 60 s at most)
SHARDS=$(NSHARD=$NSHARD SHARD_TIMEOUT=200 scripts/gpu_shards.sh tests -rs \
    tests/test_gpu_dmma_split_k.py tests/test_gpu_core.py tests/test_gpu_gemm.py tests/test_gpu_layouts.py \
    -k "dmma_split_k")
timeout 60 python3 -m pytest -q -m gpu -p no:cacheprovider -rs tests/test_robustness_gpu.py -k "dmma_split_k" \
    > "$TMP/tests_big.log" 2>&1
cat "$TMP/tests_big.log" >> "$OUT/tests.log"
echo "== tests ($(( $(date +%s) - T0 )) s; $OUT/tests.log)"
echo "$SHARDS"
grep -E "^(FAILED|ERROR)" "$TMP/tests_big.log" | cut -c1-250 | head -30
echo "  >2^31 elements: $(tail -1 "$TMP/tests_big.log" | cut -c1-200)"

# 2. float64 against cuBLAS DGEMM (170 s at most); rows print as they are timed
timeout 170 python3 benchmarks/dmma_split_k.py --out "$OUT" > "$OUT/bench.log" 2>&1
echo "== float64 vs cuBLAS DGEMM rc=$? ($(( $(date +%s) - T0 )) s; $OUT/bench.log)"

# the short table: x cuBLAS DGEMM per shape (auto as shipped, model pick, heuristic pick, best
# dmma_split_k config, unsplit dmma 64x64); if the benchmark ran out of time, its last rows instead
if grep -q "^geomean" "$OUT/bench.log"; then
    sed -n '/^x cuBLAS DGEMM per shape/,$p' "$OUT/bench.log" | cut -c1-240
else
    tail -25 "$OUT/bench.log" | cut -c1-200
fi
rm -rf "$TMP"
echo "== total $(( $(date +%s) - T0 )) s"
