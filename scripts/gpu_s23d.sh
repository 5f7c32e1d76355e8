#!/bin/bash
# twenty-third session, fourth device call: racecheck over sanitize_split.py's dmma_tail cases
# (gpu_s23b.sh's timed out at 110 s), and 8192^3 / 8192x8192x4096 float64 with dmma, dmma_tail
# and cuBLAS interleaved call by call (variants_s23/ab_interleaved.py), the SM clock and power
# sampled meanwhile.
#   bash scripts/gpu_s23d.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export PYTHONPATH=.
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv -lms 200 > "$OUT/smi.csv" 2>&1 &
smi=$!
timeout 200 python3 scripts/variants_s23/ab_interleaved.py 15 > "$OUT/ab_8192.txt" 2>&1
echo "== ab rc $?"; cat "$OUT/ab_8192.txt"
kill $smi
awk -F', ' 'NR>1 {n++; c+=$2; p+=$3} END {printf "smi: %d samples, mean SM clock %.0f MHz, mean power %.0f W\n", n, c/n, p/n}' "$OUT/smi.csv"
SAN_TIMEOUT=330 bash scripts/gpu_sanitize.sh racecheck scripts/sanitize_split.py tail
grep -c "dmma_tail ok" "$OUT/sanitizer.log"
