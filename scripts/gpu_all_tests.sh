#!/usr/bin/env bash
# Every GPU test file but the slow bench/tune/suite/dask ones, in NSHARD pytest processes side by
# side (TM_SHARD, tests/conftest.py); one combined log ($OUT/tests.log) and a summary: the FAILED
# lines and each shard's last line.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=${NSHARD:-8}
FILES=$(ls tests/test_gpu_*.py tests/test_interop_gpu.py tests/test_robustness_gpu.py \
        | grep -v -E "test_gpu_(bench|tune|suite)\.py")
for i in $(seq 0 $((NSHARD - 1))); do
    TM_SHARD="$i/$NSHARD" timeout ${LIMIT:-420} python3 -m pytest -q -m gpu $FILES -p no:cacheprovider -rs \
        > "/tmp/tests_$i.log" 2>&1 &
done
wait
cat /tmp/tests_*.log > "$OUT/tests.log"
grep -E "^(FAILED|ERROR)" "$OUT/tests.log" | cut -c1-250 | head -40
for i in $(seq 0 $((NSHARD - 1))); do tail -1 "/tmp/tests_$i.log"; done
