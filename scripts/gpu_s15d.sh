#!/bin/bash
# fifteenth session: 16-bit A·x (N <= 8) on the tensor cores, probe (scripts/variants_s15/probe_ax_mma.py)
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 scripts/variants_s15/probe_ax_mma.py "$@" 2>&1 | tee $OUT/probe_ax_mma.txt
