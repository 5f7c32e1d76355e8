#!/bin/bash
# twenty-eighth session, after dispatch.MODEL_SMALL: its GPU tests, and held out (seed 2813) the
# small skinny products it hands to the cost model, against the heuristic's warp_tiled pick.
# Cache (CPU): probe_small_skinny.py --seed 2813 --count 16 --no-fixed --compile-only scratch/cubin_s28q
#   bash scripts/gpu_s28q.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s28q ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s28q; fi
timeout 120 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_gemv.py -k "small_skinny or auto_runs_the_gemv" > "$OUT/s28q_tests.log" 2>&1
echo "== tests rc $?"; tail -3 "$OUT/s28q_tests.log"
timeout 150 python3 scripts/variants_s28/probe_small_skinny.py --seed 2813 --count 16 --no-fixed > "$OUT/s28q_small_skinny_2813.md" 2>&1
echo "== probe rc $?"; grep "^#" "$OUT/s28q_small_skinny_2813.md" | head -5; sed -n '/geometric/,$p' "$OUT/s28q_small_skinny_2813.md"
awk -F'|' '/^\| [0-9]/ && ($3 ~ /auto|heur/){printf "%-14s %-5s %7s %6s %s\n",$2,$3,$4,$5,substr($7,1,40)}' "$OUT/s28q_small_skinny_2813.md"
