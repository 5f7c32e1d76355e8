#!/bin/bash
# twenty-eighth session: the tuner times auto's transposed run of an A·x product (TuneResult.transposed)
# and saves nothing where it wins: tests/test_gpu_tune.py whole.
#   bash scripts/gpu_s28n.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 420 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_tune.py -rA > "$OUT/s28n_tune_tests.log" 2>&1
echo "== tests rc $?"; grep -E "passed|failed|PASSED.*transposed|FAILED" "$OUT/s28n_tune_tests.log" | tail -8
