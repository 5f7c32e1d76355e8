#!/usr/bin/env bash
# Ninth session: dmma variants at cuBLAS DGEMM's tile (128x64x16, 3 stages): va (each A fragment
# row loaded just before its DMMAs), vcb (the interior A copies past K read from the step-0
# sources instead of a per-copy pointer select), vc (both). Bits against the template as it is,
# then 4096³ / 8192³ against cuBLAS in alternating blocks, and ncu's fixed-clock time.
#   bash scripts/gpu_s9i.sh          (the variants: scripts/variants_s9/dmma_*.patch on kernels/)
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for v in base va vc vcb; do
    rm -rf /tmp/r/$v; mkdir -p /tmp/r/$v
    cp -r pyproject.toml tiled_matmul scripts /tmp/r/$v/
    cp -r kernels /tmp/r/$v/
    [ $v = base ] || patch -s -p1 -d /tmp/r/$v < scripts/variants_s9/dmma_$v.patch
done
timeout 200 python3 scripts/variants_s9/compare64.py /tmp/r base,va,vc,vcb 2>&1 | tee "$OUT/compare64.log"
bash scripts/clock_rounds.sh "$OUT/clock64.log" float64 2 /tmp/r "base va vc vcb" "4096:200 8192:30"
for v in base va vc vcb; do
    (cd /tmp/r/$v && PYTHONPATH=. timeout 100 ncu --kernel-name regex:dmma --launch-skip 2 --launch-count 1 \
        --metrics gpu__time_duration.sum,smsp__inst_executed.sum,sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active \
        python3 scripts/probe_clock.py --impl ours --mode float64 --size 4096 --blocks 1 --calls 3 2>&1 \
        | grep -E "^\s+(gpu__|smsp__|sm__)" | sed "s/^/$v /")
done
