#!/bin/bash
# twenty-seventh session, last code: the narrow-tile / transposed / x·B-rule GPU tests
# (tests/test_gpu_narrow.py) after the transposed tile's 48-column cap (dispatch.AX_NARROW_MAX).
# (Run as this command line on the device: the script itself was written after the run.)
#   bash scripts/gpu_s27i.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s27h ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s27h; fi
timeout 150 python3 -m pytest -q tests/test_gpu_narrow.py -p no:cacheprovider > "$OUT/tests.log" 2>&1
echo "== tests rc $?"; tail -4 "$OUT/tests.log"
