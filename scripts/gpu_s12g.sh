#!/usr/bin/env bash
# Twelfth session, suite after the FRAG_AHEAD loop and the float64 retune (H100): the same run as
# gpu_s11g.sh (both dtypes, auto and cuBLAS in 3 alternating rounds per row).
#   bash scripts/gpu_s12g.sh
exec bash "$(dirname "$0")/gpu_s11g.sh"
