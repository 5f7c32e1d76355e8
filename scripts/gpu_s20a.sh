#!/usr/bin/env bash
# Twentieth session, probe 1: bulk-copy-fed skinny float32 products (scripts/variants_s20).
set -uo pipefail
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
python3 scripts/variants_s20/probe_bulk_gemv.py 3 2>&1 | tee "$OUT/bulk_gemv.txt" | tail -40
