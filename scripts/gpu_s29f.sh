#!/bin/bash
# twenty-ninth session: dispatch.SMALL_XB_TMA_ROWS (32), set after gpu_s28q.sh's held-out run and not
# timed since: fresh small skinny x·B (seed 2903) whose first model candidate is gemv_xb_tma, on
# both sides of the limit (over 32 rows auto runs warp_tiled, the model's pick is "m1").
# Cache (CPU): probe_small_skinny.py --seed 2903 --count 16 --no-fixed --xb-tma --compile-only scratch/cubin_s29f
#   bash scripts/gpu_s29f.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s29f ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s29f; fi
timeout 200 python3 scripts/variants_s28/probe_small_skinny.py --seed 2903 --count 16 --no-fixed --xb-tma \
  > "$OUT/s29f_small_xb_tma_2903.md" 2>&1
echo "rc $?"; sed -n '/geometric/,$p' "$OUT/s29f_small_xb_tma_2903.md"
awk -F'|' '/^\| [0-9]/ && ($3 !~ /copy/){printf "%-14s %-6s %7s %6s %s\n",$2,$3,$4,$5,substr($7,1,60)}' "$OUT/s29f_small_xb_tma_2903.md"
