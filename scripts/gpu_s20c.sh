#!/usr/bin/env bash
# Twentieth session: gemv_xb_tma's 6x2048x1024 outlier, compute-sanitizer over its cases, and the
# threshold rule on held-out random x·B shapes.
set -uo pipefail
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}
python3 scripts/variants_s20/probe_xb_tma_anomaly.py 2>&1 | tee "$OUT/xb_tma_anomaly.txt"
SAN_TIMEOUT=200 bash scripts/gpu_sanitize.sh memcheck,racecheck,synccheck scripts/sanitize_split.py gemv_xb_tma
grep -E " ok|ERROR|rror|hazard" "$OUT/sanitizer.log" | sort | uniq -c | head -20
python3 scripts/variants_s20/probe_xb_tma_rule.py 3 --heldout > "$OUT/xb_tma_heldout.txt" 2>&1; tail -6 "$OUT/xb_tma_heldout.txt"
