#!/bin/bash
# prepared in the twenty-seventh session for the next one, NOT RUN: held-out A·x with 65-128 columns,
# auto against the transposed run on a 128-row tile and cut to N (scripts/variants_s27/probe_wide.py
# --random). Cache: probe_wide.py --compile-only scratch/cubin_s27j --random 2801 16
#   bash scripts/gpu_s27j.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s27j ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s27j; fi
timeout 300 python3 scripts/variants_s27/probe_wide.py --random 2801 16 > "$OUT/wide_ax_2801.md" 2>&1
echo "== probe rc $?"
awk -F'|' '/^\| [0-9]/{printf "%-16s %-7s %7s %6s %5s\n",$2,$3,$4,$5,$6}' "$OUT/wide_ax_2801.md" | grep -v cublas
