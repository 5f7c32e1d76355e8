#!/bin/bash
# twenty-ninth session, written and not run (no device time left): the held-out check of the
# candidate rule dispatch.SMALL_XB_SHORT_K (small skinny x·B whose model pick is gemv_xb_tma with
# K < 256 run gemv_xb's model config; git apply scripts/variants_s29/dispatch_small_xb_short_k.patch)
# on fresh shapes (seed 2904) against auto's pick before the rule ("s28"), and the small-skinny GPU
# tests on the new picks.
# Cache (CPU): probe_small_skinny.py --seed 2904 --count 16 --no-fixed --xb-tma --compile-only scratch/cubin_s29g
#   bash scripts/gpu_s29g.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s29g ]; then export CUPY_CACHE_DIR=${CUPY_CACHE_DIR:-$PWD/scratch/cubin_s29g}; fi
timeout 150 python3 scripts/variants_s28/probe_small_skinny.py --seed 2904 --count 16 --no-fixed --xb-tma \
  > "$OUT/s29g_small_xb_short_k_2904.md" 2>&1
echo "probe rc $?"; sed -n '/geometric/,$p' "$OUT/s29g_small_xb_short_k_2904.md"
awk -F'|' '/^\| [0-9]/ && ($3 ~ /auto|s28/){printf "%-14s %-6s %7s %6s %s\n",$2,$3,$4,$5,substr($7,1,50)}' "$OUT/s29g_small_xb_short_k_2904.md"
timeout 120 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_gemv.py tests/test_gpu_layouts.py -k "small_skinny" \
  > "$OUT/s29g_tests.log" 2>&1
echo "tests rc $?"; grep -E "^E|passed|failed" "$OUT/s29g_tests.log" | head -8
