#!/bin/bash
# twenty-eighth session: float32 GEMV shapes where the heuristic's table pick and the cost model's
# pick among the same rung's configs differ (held out, seed 2802), both timed beside cuBLAS.
# Cache (CPU): probe_gemv_model.py --compile-only scratch/cubin_s28b
#   bash scripts/gpu_s28b.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s28b ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s28b; fi
timeout 400 python3 scripts/variants_s28/probe_gemv_model.py --seed 2802 --xb 24 --ax 12 > "$OUT/gemv_model_2802.md" 2>&1
echo "== rc $?"
grep "^#" "$OUT/gemv_model_2802.md" | head
sed -n '/geometric/,$p' "$OUT/gemv_model_2802.md"
awk -F'|' '/^\| [0-9]/ && ($3 ~ /table|model/){printf "%-16s %-6s %8s %6s %5s\n",$2,$3,$4,$5,$6}' "$OUT/gemv_model_2802.md"
