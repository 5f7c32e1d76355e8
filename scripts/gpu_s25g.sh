#!/bin/bash
# twenty-fifth session, the shipped rules: ragged x·B on gemv_xb_tma only where A is not copied
# (heuristic._a_copied). The GEMV GPU tests that run gemv_xb_tma or auto, the float32 suite tests
# of auto, held-out ragged shapes (auto now against before), and the suite's GEMV class.
#   bash scripts/gpu_s25g.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 230 python3 -m pytest -q tests/test_gpu_gemv.py -k "gemv_xb_tma or fold or chunks or auto" -p no:cacheprovider > "$OUT/tests_gemv.log" 2>&1
echo "== gemv tests rc $?"; tail -2 "$OUT/tests_gemv.log"
timeout 150 python3 -m pytest -q tests/test_gpu_suite.py -k "float32" -p no:cacheprovider > "$OUT/tests_suite.log" 2>&1
echo "== suite tests rc $?"; tail -2 "$OUT/tests_suite.log"
timeout 100 python3 scripts/variants_s25/probe_fold.py --heldout --seed 2505 --count 20 > "$OUT/fold_heldout_2505.md" 2>&1
echo "== rc $?"; tail -3 "$OUT/fold_heldout_2505.md"
timeout 60 python3 benchmarks/shape_suite.py --dtypes float32 --classes gemv > "$OUT/suite_gemv.log" 2>&1
echo "== rc $?"; grep -E "Geometric" "$OUT/suite_gemv.log"
