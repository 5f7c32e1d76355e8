#!/bin/bash
# seventeenth session, last: the GPU tests over what the session's rules route (auto on the suite
# and on the shapes they moved, the split and half rungs' auto tests, the GEMV and dmma auto tests),
# and the 16-row x.B probe (probe_xb16.py).
#   bash scripts/gpu_s17g.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=4 SHARD_TIMEOUT=300 bash scripts/gpu_shards.sh auto tests/test_gpu_suite.py tests/test_gpu_wgmma_split_k.py \
    tests/test_gpu_half.py tests/test_gpu_mma_half_split_k.py tests/test_gpu_gemv.py tests/test_gpu_gemv_half.py \
    tests/test_gpu_dmma.py tests/test_gpu_dmma_split_k.py tests/test_gpu_dmma_tail.py -k "auto or suite or moved"
timeout 150 python3 scripts/variants_s17/probe_xb16.py > "$OUT/xb16.txt" 2>&1
echo "xb16 rc $?"; cat "$OUT/xb16.txt" | cut -c1-220
