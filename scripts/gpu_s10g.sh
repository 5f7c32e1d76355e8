#!/usr/bin/env bash
# Tenth session, last check (H100): the suite test that ran out of GPU memory beside seven other
# test processes in gpu_s10f.sh (16384x16384x16 float64), alone with its tiny-K neighbours;
# compute-sanitizer over the split workload, which now includes dmma's two new tiles.
#   bash scripts/gpu_s10g.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
timeout 150 python3 -m pytest -q -m gpu -p no:cacheprovider tests/test_gpu_suite.py -k "tiny" -rfEs > "$OUT/tiny.log" 2>&1
echo "== tiny-K suite tests rc $? $(( $(date +%s) - T0 )) s: $(tail -1 "$OUT/tiny.log")"
SAN_TIMEOUT=120 bash scripts/gpu_sanitize.sh memcheck,racecheck,synccheck scripts/sanitize_split.py
echo "== sanitizer $(( $(date +%s) - T0 )) s"
