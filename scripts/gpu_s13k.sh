#!/usr/bin/env bash
# Thirteenth session (H100), the final code: the whole suite in 3 alternating rounds
# (gpu_s11g.sh: benchmarks/shape_suite.py --rounds 3). The sanitizer run over
# scripts/sanitize_split.py (now with dmma_tail) was its own call:
#   PYTHONPATH=. SAN_TIMEOUT=240 bash scripts/gpu_sanitize.sh memcheck,racecheck scripts/sanitize_split.py
#   bash scripts/gpu_s13k.sh
set -u
exec bash "$(dirname "$0")/gpu_s11g.sh"
