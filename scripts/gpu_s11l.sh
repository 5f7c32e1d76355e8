#!/usr/bin/env bash
# Eleventh session (H100): dmma's DMMAs of a step issued column of n8 tiles by column (j outer)
# instead of row by row (scripts/variants_s11/dmma_mma_order.patch; each accumulator sees the same
# k order, so outputs are bit-identical), against the template as it is: auto on aligned float64
# shapes in 5 alternating rounds, then ncu's fixed-clock kernel time at 4096^3, twice each.
#   bash scripts/gpu_s11l.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
rm -rf /tmp/r; mkdir -p /tmp/r/base /tmp/r/ji
cp -r pyproject.toml tiled_matmul kernels scripts /tmp/r/base/
cp -r pyproject.toml tiled_matmul kernels scripts /tmp/r/ji/
patch -s -p1 -d /tmp/r/ji < scripts/variants_s11/dmma_mma_order.patch || echo "patch failed"
timeout 300 python3 scripts/variants_s11/compare_elem.py /tmp/r base,ji 5 aligned 2>&1 | tee "$OUT/compare_ji.log" | tail -7
for rep in 1 2; do
    for v in base ji; do
        (cd /tmp/r/$v && PYTHONPATH=. timeout 100 ncu --kernel-name regex:dmma --launch-skip 2 --launch-count 1 \
            --metrics gpu__time_duration.sum,sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active \
            python3 scripts/probe_clock.py --impl ours --mode float64 --size 4096 --blocks 1 --calls 3 2>&1 \
            | grep -E "^\s+(gpu__|sm__)" | sed "s/^/$v r$rep /")
    done
done | tee "$OUT/ncu_ji.log"
