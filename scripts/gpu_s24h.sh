#!/bin/bash
# twenty-fourth session: gpu_s24d.sh's sweeps for float16 and bfloat16 (heuristic against the cost
# model as auto's fallback).
#   bash scripts/gpu_s24h.sh
exec bash "$(dirname "$0")/gpu_s24d.sh" float16,bfloat16 half 130
