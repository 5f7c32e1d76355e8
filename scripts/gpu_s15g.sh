#!/bin/bash
# fifteenth session: gemv_xb_mma (the tensor-core x·B, dropped: scripts/variants_s15/gemv_xb_mma.patch) against
# auto and cuBLAS, and the final checks of gemv_ax_mma (tests: its file and the half files; sanitize:
# memcheck and racecheck over its sanitize_split.py cases)
#   bash scripts/gpu_s15g.sh [probe|quick|tests|sanitize]...
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for w in ${*:-probe}; do
  case $w in
    probe|quick) arg=""; [ $w = quick ] && arg=quick
           timeout 500 python3 scripts/variants_s15/probe_xb_rows.py $arg > "$OUT/probe_xb_$w.txt" 2>&1; echo "$w rc $?"
           python3 scripts/variants_s15/compact.py "$OUT/probe_xb_$w.txt"
           ;;
    tests) NSHARD=4 SHARD_TIMEOUT=400 bash scripts/gpu_shards.sh s15g_tests \
             tests/test_gpu_gemv_ax_mma.py tests/test_gpu_gemv_half.py tests/test_gpu_half.py tests/test_gpu_mma_half_split_k.py -k "not torch" ;;
    sanitize) SAN_TIMEOUT=300 bash scripts/gpu_sanitize.sh memcheck,racecheck scripts/sanitize_split.py _mma
              grep -E "Race|Error" "$OUT/sanitizer.log" | sed 's/+0x[0-9a-f]*//' | sort | uniq -c | head ;;
  esac
done
