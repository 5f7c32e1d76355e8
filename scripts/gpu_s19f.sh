#!/bin/bash
# nineteenth session: the GEMV rungs' wave-priced slice count (SkinnyConfig.k_splits) against the
# old rule on 115 held-out skinny shapes (scripts/variants_s19/probe_split_rule.py), then the GEMV
# rungs' and the split reduce's GPU tests on the new rule.
#   bash scripts/gpu_s19f.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 300 python3 scripts/variants_s19/probe_split_rule.py > "$OUT/split_rule.txt" 2>&1
echo "probe rc $?"
timeout 250 python3 -m pytest -q -m gpu tests/test_gpu_gemv.py tests/test_gpu_gemv_half.py tests/test_gpu_gemv_ax_mma.py \
    tests/test_gpu_split_reduce.py > "$OUT/tests_gemv.log" 2>&1
echo "tests rc $?"; tail -3 "$OUT/tests_gemv.log"
grep -E "WRONG|moved:" "$OUT/split_rule.txt"
sed -E "s/\{[^}]*\}//g" "$OUT/split_rule.txt" | tail -120
