#!/bin/bash
# twenty-eighth session, after dispatch.AX_TRANSPOSED_WIDE and MODEL_CONFIGS: the GPU tests they
# touch, and held out (seed 2806), A·x with 65-128 columns that auto now runs transposed against
# their own pick.
# Cache (CPU): probe_wide.py --random 2806 12 --transposed-only --compile-only scratch/cubin_s28e
#   bash scripts/gpu_s28e.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s28e ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s28e; fi
timeout 300 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_gemv.py tests/test_gpu_layouts.py tests/test_gpu_narrow.py \
  -k "slightly_wider or auto_runs_the_gemv or gemv_xb_model or a_x_runs_transposed or general_path or nan_and_inf" > "$OUT/s28e_tests.log" 2>&1
echo "== tests rc $?"; tail -4 "$OUT/s28e_tests.log"
timeout 250 python3 scripts/variants_s27/probe_wide.py --random 2806 12 --transposed-only > "$OUT/s28e_wide_ax_2806.md" 2>&1
echo "== wide rc $?"
grep "^#" "$OUT/s28e_wide_ax_2806.md" | head
sed -n '/geometric/,$p' "$OUT/s28e_wide_ax_2806.md"
awk -F'|' '/^\| [0-9]/ && ($3 ~ /auto|own/){printf "%-18s %-6s %8s %6s\n",$2,$3,$4,$5}' "$OUT/s28e_wide_ax_2806.md"
