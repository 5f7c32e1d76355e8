#!/bin/bash
# thirty-ninth session: B rows off 16 bytes read in place by TMA in phase maps
# (variants_s39/probe_b_phases.py; cubins precompiled with --compile-only scratch/cubin_s32b).
# About 120 s.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
for dt in float16 bfloat16; do
  timeout 150 python3 scripts/variants_s39/probe_b_phases.py --dtype $dt > "$OUT/s39c_bphases_$dt.md" 2>&1
  echo "probe $dt rc $?"; cat "$OUT/s39c_bphases_$dt.md" | tail -20
done
