#!/bin/bash
# twenty-fifth session: gemv_xb_tma with the folded B as its own kernel (KERNEL_NAME_folded), so
# that the plain kernel keeps its registers. Its GPU tests; the A/B against the template before the
# folded B on aligned shapes (probe_ab_fold.py, which registers the old template as a user
# strategy from scripts/variants_s25/_old/); then held-out ragged x·B shapes where auto now takes
# the rung (heuristic.XB_TMA_RAGGED_MIN_N) against auto's pick before, and cuBLAS FP32.
#   bash scripts/gpu_s25f.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 -m pytest -q -x tests/test_gpu_gemv.py -k "gemv_xb_tma or fold or chunks" -p no:cacheprovider > "$OUT/tests.log" 2>&1
echo "== tests rc $?"; tail -3 "$OUT/tests.log"
timeout 100 python3 scripts/variants_s25/probe_ab_fold.py > "$OUT/ab.txt" 2>&1
echo "== rc $?"; cat "$OUT/ab.txt"
timeout 150 python3 scripts/variants_s25/probe_fold.py --heldout --seed 2504 --count 24 > "$OUT/fold_heldout_2504.md" 2>&1
echo "== rc $?"; cut -c1-160 "$OUT/fold_heldout_2504.md"
