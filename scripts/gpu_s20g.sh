#!/usr/bin/env bash
# Twentieth session: A·x at N = 8, the ring's depth (gpu_s20f.sh's ncu: the consumers wait on the
# full barrier 41% of the time at 4 stages; N = 1 ran 6).
set -uo pipefail
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}
python3 scripts/variants_s20/probe_ax_n8.py 2>&1 | tee "$OUT/ax_n8_depth.txt"
