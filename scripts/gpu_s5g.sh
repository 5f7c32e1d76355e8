#!/usr/bin/env bash
# Fifth session, closing GPU run: issue 14's batched, epilogue and alpha/beta numbers on the final
# code (benchmarks/batched_and_epilogues.py), and every gemv_xb config on the two GEMV shapes below
# cuBLAS in the suite (benchmarks/gemv.py --configs all). Logs under $OUT.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
echo "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>&1 | head -1)"
timeout 300 python3 benchmarks/batched_and_epilogues.py > "$OUT/batched.log" 2>&1
echo "batched rc=$?"; grep -E "^\|" "$OUT/batched.log" | tail -12
timeout 200 python3 benchmarks/gemv.py --sizes 1x8192x8192,1x4096x16384 --configs all --repeat 20 > "$OUT/gemv.log" 2>&1
echo "gemv rc=$?"; grep -E "^\|" "$OUT/gemv.log" | sort -t'|' -k2,2 | tail -30
