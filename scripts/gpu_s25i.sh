#!/bin/bash
# twenty-fifth session, last check of the shipped code: every GEMV GPU test (gemv_xb, gemv_ax,
# gemv_xb_tma plain and folded, auto's GEMV and chunk picks) and wgmma_split_k's heuristic picks
# (32x1024x32768 now goes to gemv_xb_tma's chunks).
#   bash scripts/gpu_s25i.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 330 python3 -m pytest -q tests/test_gpu_gemv.py -p no:cacheprovider > "$OUT/tests_gemv.log" 2>&1
echo "== gemv tests rc $?"; tail -2 "$OUT/tests_gemv.log"
timeout 60 python3 -m pytest -q tests/test_gpu_wgmma_split_k.py -k heuristic -p no:cacheprovider > "$OUT/tests_wgsk.log" 2>&1
echo "== wgmma_split_k heuristic rc $?"; tail -2 "$OUT/tests_wgsk.log"
