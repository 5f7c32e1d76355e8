#!/bin/bash
# nineteenth session: the refitted slice-count rule (SkinnyConfig.split_plan) against the old rule
# on a held-out set of skinny shapes (probe_split_rule.py --second: the rule fitted on the first
# set; --third: refitted on both, with the latency term), then the GEMV rungs', the split reduce's
# and the 16-bit auto GPU tests on it.
#   bash scripts/gpu_s19g.sh second|third
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
SET=${1:-third}
N=$([ "$SET" = second ] && echo 2 || echo 3)
timeout 320 python3 scripts/variants_s19/probe_split_rule.py --"$SET" > "$OUT/split_rule$N.txt" 2>&1
echo "probe rc $?"
timeout 250 python3 -m pytest -q -m gpu tests/test_gpu_gemv.py tests/test_gpu_gemv_half.py tests/test_gpu_gemv_ax_mma.py \
    tests/test_gpu_split_reduce.py "tests/test_gpu_half.py::test_auto_runs_half_products" > "$OUT/tests_gemv$N.log" 2>&1
echo "tests rc $?"; tail -3 "$OUT/tests_gemv$N.log"
grep -E "WRONG|moved:" "$OUT/split_rule$N.txt"
sed -E "s/\{[^}]*\}//g" "$OUT/split_rule$N.txt" | awk '{print $1, $2, $(NF-2), $(NF-1), $NF}' | tail -150
