#!/bin/bash
# twenty-fifth session: heuristic._skinny_chunks on the GPU. The GEMV GPU tests for gemv_xb_tma
# (now with 16-row configs) and auto's chunk picks, then held-out random shapes where the rule
# applies: new pick against the old one and cuBLAS FP32 (seed 2501 also under precision="ieee").
#   bash scripts/gpu_s25b.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 250 python3 -m pytest -q -x tests/test_gpu_gemv.py -k "gemv_xb_tma or chunks" -p no:cacheprovider > "$OUT/tests.log" 2>&1
echo "== tests rc $?"; tail -4 "$OUT/tests.log"
timeout 150 python3 scripts/variants_s25/probe_chunks.py --seed 2501 --count 30 --ieee > "$OUT/chunks_2501.md" 2>&1
echo "== rc $?"; tail -7 "$OUT/chunks_2501.md"
timeout 120 python3 scripts/variants_s25/probe_chunks.py --seed 2502 --count 30 > "$OUT/chunks_2502.md" 2>&1
echo "== rc $?"; tail -3 "$OUT/chunks_2502.md"
