#!/bin/bash
# twenty-fifth session: gemv_xb_tma reads a B whose rows are not 16-byte multiples folded (2 or 4
# rows to a row of its tensor map) instead of copying it into padded rows. Its GPU tests (every
# config on folded shapes, NaN/Inf, the rest of its GEMV tests), then folded timings against
# auto's pick (which keeps such products off the rung so far) and cuBLAS FP32, and the suite's
# GEMV class (the aligned path: its stages grew by a vector per row). Its first run, before the
# boxes started on whole vectors, stopped at an illegal instruction
# (results/h100/session25/s25d_tests_illegal_instruction.log).
#   bash scripts/gpu_s25d.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 -m pytest -q -x tests/test_gpu_gemv.py -k "gemv_xb_tma or fold" -p no:cacheprovider > "$OUT/tests.log" 2>&1
echo "== tests rc $?"; tail -4 "$OUT/tests.log"
timeout 120 python3 scripts/variants_s25/probe_fold.py > "$OUT/fold_list.md" 2>&1
echo "== rc $?"; cut -c1-150 "$OUT/fold_list.md"
timeout 150 python3 scripts/variants_s25/probe_fold.py --seed 2503 --count 24 > "$OUT/fold_2503.md" 2>&1
echo "== rc $?"; cut -c1-150 "$OUT/fold_2503.md"
timeout 100 python3 benchmarks/shape_suite.py --dtypes float32 --classes gemv > "$OUT/suite_gemv.log" 2>&1
echo "== rc $?"; grep -E "^\| gemv|Geometric" "$OUT/suite_gemv.log" | cut -c1-170
