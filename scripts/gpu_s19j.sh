#!/bin/bash
# nineteenth session: compute-sanitizer memcheck and racecheck over the GEMV split cases of
# scripts/sanitize_split.py (the slice counts of SkinnyConfig.split_plan among them).
#   bash scripts/gpu_s19j.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
SAN_TIMEOUT=240 bash scripts/gpu_sanitize.sh memcheck,racecheck scripts/sanitize_split.py gemv
grep -E " ok|Error|error" "$OUT/sanitizer.log" | sort | uniq -c | head -30
