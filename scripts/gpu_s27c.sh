#!/bin/bash
# twenty-seventh session: x·B with 33-64 rows whose rows of A or B are not whole 16-byte vectors
# (wgmma_tma_tf32 copies them): the TMA tiles against the model's narrowed wgmma pick
# (scripts/variants_s27/probe_xb.py --shapes). Cache: probe_xb.py --compile-only scratch/cubin_s27c
#   bash scripts/gpu_s27c.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s27c ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s27c; fi
SHAPES=57x20581x5252,46x27757x1472,37x17004x1031,48x18707x2051,61x12942x2540,40x24001x3000,53x16900x6001,64x30002x1500
timeout 300 python3 scripts/variants_s27/probe_xb.py --shapes $SHAPES > "$OUT/ragged.md" 2>&1
echo "== probe rc $?"; grep -v "^|" "$OUT/ragged.md" | tail -8
