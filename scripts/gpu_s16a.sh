#!/bin/bash
# sixteenth session: float32 short-K tiles (variants_s16/probe_tiny_k.py) and the GEMV rows' rate
# against their blocks per SM (variants_s16/probe_gemv_sms.py).
#   bash scripts/gpu_s16a.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 200 python3 scripts/variants_s16/probe_gemv_sms.py > "$OUT/probe_gemv_sms.txt" 2>&1; echo "gemv_sms rc $?"
timeout 330 python3 scripts/variants_s16/probe_tiny_k.py > "$OUT/probe_tiny_k.txt" 2>&1; echo "tiny_k rc $?"
cat "$OUT/probe_gemv_sms.txt"
grep -c "cuBLAS" "$OUT/probe_tiny_k.txt"; grep -E "WRONG|Error" "$OUT/probe_tiny_k.txt" | head
