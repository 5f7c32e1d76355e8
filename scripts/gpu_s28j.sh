#!/bin/bash
# twenty-eighth session: the general-path gemv_xb test after gpu_s28i.sh showed its batch (with a
# transposed B, stacked to 12-24 rows) ran other rungs; now a shared row-major B, stacked to <= 8 rows.
#   bash scripts/gpu_s28j.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 200 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_layouts.py -k "gemv_xb_model or gemm_epilogue" > "$OUT/s28j_tests.log" 2>&1
echo "== tests rc $?"; tail -3 "$OUT/s28j_tests.log"
