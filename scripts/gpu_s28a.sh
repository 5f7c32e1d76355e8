#!/bin/bash
# twenty-eighth session: x·B with 1-8 rows on a narrow B, every gemv_xb config against auto
# (float32, float64), and the twenty-seventh session's prepared held-out A·x with 65-128 columns.
# Cache (CPU): probe_gemv_narrow.py --compile-only scratch/cubin_s28a --seed 2801 --count 16 --dtype D
#              probe_wide.py --compile-only scratch/cubin_s28a --random 2801 16
#   bash scripts/gpu_s28a.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s28a ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s28a; fi
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv > "$OUT/smi.csv"
for dt in float32 float64; do
  timeout 200 python3 scripts/variants_s28/probe_gemv_narrow.py --seed 2801 --count 16 --dtype $dt > "$OUT/gemv_narrow_$dt.md" 2>&1
  echo "== $dt rc $?"
done
timeout 200 python3 scripts/variants_s27/probe_wide.py --random 2801 16 > "$OUT/wide_ax_2801.md" 2>&1
echo "== wide rc $?"
for dt in float32 float64; do echo "## $dt"; sed -n '/geometric/,$p' "$OUT/gemv_narrow_$dt.md"; done
grep -h "^#" "$OUT"/gemv_narrow_*.md | head
sed -n '/geometric/,$p' "$OUT/wide_ax_2801.md" | head -20
