#!/bin/bash
# twenty-ninth session: MODEL_SMALL's picks through the general path, the test as rewritten after
# gpu_s29b.sh (its first form assumed A^T read in place and the batch on the 2-D pick: neither is
# the general path's rule).
# Cache (CPU): scripts/variants_s27/precompile_auto.py scratch/cubin_s29c 32,33 40 1
#   bash scripts/gpu_s29c.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s29c ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s29c; fi
timeout 90 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_layouts.py -k "small_skinny_model" > "$OUT/s29c_tests.log" 2>&1
echo "rc $?"; grep -E "^E|passed|failed" "$OUT/s29c_tests.log" | head -12
