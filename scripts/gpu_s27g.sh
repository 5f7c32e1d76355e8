#!/bin/bash
# twenty-seventh session: float32 products with 65-128 rows (x·B) or columns (A·x): the wgmma
# tiles cut to the output, and A·x as its transpose (scripts/variants_s27/probe_wide.py).
# Cache: probe_wide.py --compile-only scratch/cubin_s27g
#   bash scripts/gpu_s27g.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s27g ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s27g; fi
timeout 300 python3 scripts/variants_s27/probe_wide.py > "$OUT/wide.md" 2>&1
echo "== probe rc $?"; grep -v "^|" "$OUT/wide.md" | tail -5
awk -F'|' '/^\| [0-9]/{printf "%-16s %-7s %7s %6s %5s\n",$2,$3,$4,$5,$6}' "$OUT/wide.md"
