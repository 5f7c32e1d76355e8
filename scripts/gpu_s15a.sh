#!/bin/bash
# fifteenth session: the TMA-fed DMMA probe (scripts/variants_s15/probe_dmma_tma.py)
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv | tee $OUT/gpu.txt
python3 scripts/variants_s15/probe_dmma_tma.py "$@" 2>&1 | tee $OUT/probe_dmma_tma.txt
