#!/usr/bin/env bash
# Eleventh session (H100): does the 8-byte interior loop cost the aligned (16-byte) loop anything?
# auto from the tree without the change (scripts/variants_s11/dmma_elem.patch reversed) against
# the working tree on the aligned shapes, 5 alternating rounds; then ncu's fixed-clock kernel
# time at 4096^3 for each, twice.
#   bash scripts/gpu_s11b.sh
# (It ran on a tree whose kernels/12_dmma.cu.j2 was d2b35f4's with dmma_elem.patch applied; the
# shipped form, a second kernel, is gpu_s11c.sh's.)
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
rm -rf /tmp/r; mkdir -p /tmp/r/base /tmp/r/new
cp -r pyproject.toml tiled_matmul kernels scripts /tmp/r/base/
cp -r pyproject.toml tiled_matmul kernels scripts /tmp/r/new/
patch -s -R -p1 -d /tmp/r/base < scripts/variants_s11/dmma_elem.patch || echo "patch -R failed"
timeout 300 python3 scripts/variants_s11/compare_elem.py /tmp/r base,new 5 aligned 2>&1 | tee "$OUT/compare_aligned.log" | tail -8
for rep in 1 2; do
    for v in base new; do
        (cd /tmp/r/$v && PYTHONPATH=. timeout 100 ncu --kernel-name regex:dmma --launch-skip 2 --launch-count 1 \
            --metrics gpu__time_duration.sum,sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active \
            python3 scripts/probe_clock.py --impl ours --mode float64 --size 4096 --blocks 1 --calls 3 2>&1 \
            | grep -E "^\s+(gpu__|sm__)" | sed "s/^/$v r$rep /")
    done
done | tee "$OUT/ncu.log"
