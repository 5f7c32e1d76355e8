#!/bin/bash
# twenty-seventh session: narrowed heights 56-128 (dispatch.NARROW_HEIGHTS = (24, 128), from 64- and
# 128-row tiles): the GPU tests of the narrow tiles and x·B rules, then the held-out check, before
# (heights 24-48) against shipped, on shapes whose pick the heights change
# (scripts/variants_s27/probe_check.py --set heights). Cache: --compile-only scratch/cubin_s27h
#   bash scripts/gpu_s27h.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s27h ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s27h; fi
timeout 150 python3 -m pytest -q tests/test_gpu_narrow.py -p no:cacheprovider > "$OUT/tests.log" 2>&1
echo "== tests rc $?"; tail -6 "$OUT/tests.log"
timeout 200 python3 scripts/variants_s27/probe_check.py --set heights --seed 2704 --count 12 > "$OUT/heights_2704.md" 2>&1
echo "== probe rc $?"; grep -v "^|" "$OUT/heights_2704.md" | tail -5
awk -F'|' '/^\| [0-9]/{printf "%-16s %-7s %6s\n",$2,$3,$5}' "$OUT/heights_2704.md" | grep -v cublas
