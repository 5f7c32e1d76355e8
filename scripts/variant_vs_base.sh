#!/usr/bin/env bash
# A dmma template variant (a patch on kernels/) against the tree as it is: auto on aligned float64
# shapes in 5 alternating rounds with bits compared (scripts/variants_s11/compare_elem.py), then
# ncu's fixed-clock kernel time and DMMA-pipe use at 4096^3, twice each. The loop the eleventh
# session's variant scripts share.
#   scripts/variant_vs_base.sh NAME PATCH     e.g.  scripts/variant_vs_base.sh late scripts/variants_s11/x.patch
# Env: OUT (logs: compare_NAME.log, ncu_NAME.log).
set -u
name=$1 patchfile=$2
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
rm -rf /tmp/r; mkdir -p /tmp/r/base "/tmp/r/$name"
cp -r pyproject.toml tiled_matmul kernels scripts /tmp/r/base/
cp -r pyproject.toml tiled_matmul kernels scripts "/tmp/r/$name/"
patch -s -p1 -d "/tmp/r/$name" < "$patchfile" || echo "patch failed"
timeout 300 python3 scripts/variants_s11/compare_elem.py /tmp/r "base,$name" 5 aligned 2>&1 \
    | tee "$OUT/compare_$name.log" | tail -7
for rep in 1 2; do
    for v in base "$name"; do
        (cd "/tmp/r/$v" && PYTHONPATH=. timeout 100 ncu --kernel-name regex:dmma --launch-skip 2 --launch-count 1 \
            --metrics gpu__time_duration.sum,sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active \
            python3 scripts/probe_clock.py --impl ours --mode float64 --size 4096 --blocks 1 --calls 3 2>&1 \
            | grep -E "^\s+(gpu__|sm__)" | sed "s/^/$v r$rep /")
    done
done | tee "$OUT/ncu_$name.log"
