#!/bin/bash
# twenty-seventh session: the x·B 17-64-row rules (dispatch.xb_choice) and A·x transposed up to 64
# columns (B with ragged rows off the TMA tiles): their GPU tests, then the held-out check, before
# against shipped, on seed 2702 (the rule was mended after it) and 2703
# (scripts/variants_s27/probe_check.py). A cubin cache filled on the CPU
# (probe_check.py --compile-only scratch/cubin_s27b) is used where carried.
#   bash scripts/gpu_s27d.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s27b ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s27b; fi
timeout 150 python3 -m pytest -q tests/test_gpu_narrow.py -p no:cacheprovider > "$OUT/tests.log" 2>&1
echo "== tests rc $?"; tail -8 "$OUT/tests.log"
for seed in 2702 2703; do
  timeout 150 python3 scripts/variants_s27/probe_check.py --seed $seed --count 12 > "$OUT/check_$seed.md" 2>&1
  echo "== probe $seed rc $?"; grep -v "^|" "$OUT/check_$seed.md" | tail -5
done
