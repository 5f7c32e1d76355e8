#!/bin/bash
# twenty-eighth session, after dispatch.MODEL_CONFIGS (float32 gemv_xb configs by the cost model) and
# costmodel.groups_fit: the GEMV GPU tests; the model's picks without / with groups_fit (float32,
# float64 within gemv_xb, float64's whole fallback where the rung moves); held out, the table's
# pick against the shipped model's (seed 2804).
# Cache (CPU): probe_gemv_model.py --compile-only scratch/cubin_s28c with each probe's arguments
#   bash scripts/gpu_s28c.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s28c ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s28c; fi
timeout 240 python3 -m pytest -q tests/test_gpu_gemv.py -p no:cacheprovider > "$OUT/s28c_tests.log" 2>&1
echo "== tests rc $?"; tail -3 "$OUT/s28c_tests.log"
P=scripts/variants_s28/probe_gemv_model.py
timeout 80 python3 $P --compare filter --dtype float32 --seed 2803 --xb 12 --ax 0 > "$OUT/s28c_filter_f32.md" 2>&1; echo "== filter f32 rc $?"
timeout 80 python3 $P --compare filter --dtype float64 --seed 2803 --xb 12 --ax 0 > "$OUT/s28c_filter_f64.md" 2>&1; echo "== filter f64 rc $?"
timeout 60 python3 $P --compare fallback --dtype float64 --seed 2805 --xb 8 --ax 0 > "$OUT/s28c_fallback_f64.md" 2>&1; echo "== fallback f64 rc $?"
timeout 120 python3 $P --seed 2804 --xb 24 --ax 0 > "$OUT/s28c_table_2804.md" 2>&1; echo "== table 2804 rc $?"
for f in filter_f32 filter_f64 fallback_f64 table_2804; do echo "## $f"; grep "^#" "$OUT/s28c_$f.md" | head -5; sed -n '/geometric/,$p' "$OUT/s28c_$f.md"; done
