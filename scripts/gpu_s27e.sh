#!/bin/bash
# twenty-seventh session: x·B with 17-64 rows on wgmma_split_k (the held-out losers, long K on a
# B 2000-10000 wide): auto's tile against two blocks per SM and half or twice the slices
# (scripts/variants_s27/probe_xb.py --set split). Cache: --compile-only scratch/cubin_s27e
#   bash scripts/gpu_s27e.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s27e ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s27e; fi
timeout 400 python3 scripts/variants_s27/probe_xb.py --set split --shapes 27x4351x14081,23x4264x7284,31x9876x15022,60x3520x12545,18x2632x11742,41x9323x11860,24x4096x16384,57x5780x6308,37x2319x5412,20x6000x3000,40x2048x4099 > "$OUT/split.md" 2>&1
echo "== probe rc $?"; grep -v "^|" "$OUT/split.md" | tail -10
