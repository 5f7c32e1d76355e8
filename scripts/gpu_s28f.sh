#!/bin/bash
# twenty-eighth session, AX_TRANSPOSED_WIDE narrowed to the TMA picks on a padded copy of A (K % 4):
# its GPU tests, and held out (seed 2807) the A·x shapes it now transposes against their own pick.
# Cache (CPU): probe_wide.py --random 2807 14 --transposed-only --compile-only scratch/cubin_s28f
#   bash scripts/gpu_s28f.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s28f ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s28f; fi
timeout 200 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_narrow.py -k "a_x_runs_transposed or general_path" > "$OUT/s28f_tests.log" 2>&1
echo "== tests rc $?"; tail -3 "$OUT/s28f_tests.log"
timeout 300 python3 scripts/variants_s27/probe_wide.py --random 2807 14 --transposed-only > "$OUT/s28f_wide_ax_2807.md" 2>&1
echo "== wide rc $?"
grep "^#" "$OUT/s28f_wide_ax_2807.md" | head
sed -n '/geometric/,$p' "$OUT/s28f_wide_ax_2807.md"
awk -F'|' '/^\| [0-9]/ && ($3 ~ /auto|own/){printf "%-18s %-6s %8s %6s %s\n",$2,$3,$4,$5,substr($7,1,40)}' "$OUT/s28f_wide_ax_2807.md"
